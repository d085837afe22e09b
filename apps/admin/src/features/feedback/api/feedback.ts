import type { Feedback, ListOf } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';
import { placeQuery, type ListPlace } from '../../../lib/list-place';

export const FEEDBACK_PAGE_SIZE = 20;

export function listFeedback(place: ListPlace, search: string, signal?: AbortSignal): Promise<ListOf<Feedback>> {
  return api.get<ListOf<Feedback>>('/feedback/all', { ...placeQuery(place, FEEDBACK_PAGE_SIZE), search: search || undefined }, signal);
}

export async function deleteFeedback(id: string): Promise<void> {
  await api.delete(`/feedback/${encodeURIComponent(id)}`);
}
