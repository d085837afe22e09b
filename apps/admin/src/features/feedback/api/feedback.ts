import type { Feedback, ListOf } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';
import { placeQuery, type ListPlace } from '../../../lib/list-place';

export const FEEDBACK_PAGE_SIZE = 20;

/** A page of the messages, newest first; `from` keeps those received on that day (YYYY-MM-DD) or later. */
export function listFeedback(place: ListPlace, filters: { search: string; from: string }, signal?: AbortSignal): Promise<ListOf<Feedback>> {
  return api.get<ListOf<Feedback>>(
    '/feedback/all',
    { ...placeQuery(place, FEEDBACK_PAGE_SIZE), search: filters.search || undefined, from: filters.from || undefined },
    signal,
  );
}

export async function deleteFeedback(id: string): Promise<void> {
  await api.delete(`/feedback/${encodeURIComponent(id)}`);
}
