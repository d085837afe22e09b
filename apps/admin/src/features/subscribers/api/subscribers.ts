import type { ListOf, Subscriber } from '@persona/contracts';
import { api, apiDownload } from '@persona/web-kit/api-client';
import { placeQuery, type ListPlace } from '../../../lib/list-place';

export const SUBSCRIBERS_PAGE_SIZE = 50;

export function listSubscribers(place: ListPlace, search: string, signal?: AbortSignal): Promise<ListOf<Subscriber>> {
  return api.get<ListOf<Subscriber>>('/admin/subscribers', { ...placeQuery(place, SUBSCRIBERS_PAGE_SIZE), search: search || undefined }, signal);
}

/** The server writes subscribers.csv from the whole list (it may be long). */
export function exportSubscribers() {
  return apiDownload('/admin/subscribers/export');
}
