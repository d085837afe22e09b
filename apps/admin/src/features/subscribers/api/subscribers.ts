import type { ListOf, Subscriber } from '@persona/contracts';
import { api, apiDownload } from '@persona/web-kit/api-client';

export const SUBSCRIBERS_PAGE_SIZE = 50;

export function listSubscribers(page: number, signal?: AbortSignal): Promise<ListOf<Subscriber>> {
  return api.get<ListOf<Subscriber>>('/admin/subscribers', { page, limit: SUBSCRIBERS_PAGE_SIZE }, signal);
}

/** The server writes subscribers.csv from the whole list (it may be long). */
export function exportSubscribers() {
  return apiDownload('/admin/subscribers/export');
}
