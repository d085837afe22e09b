import type { Envelope, Feedback, FeedbackState, ListOf } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';
import { placeQuery, type ListPlace } from '../../../lib/list-place';

export const FEEDBACK_PAGE_SIZE = 20;

/** A page of the messages, newest first; `from` keeps those received on that day (YYYY-MM-DD) or later; `state` those waiting or handled. */
export function listFeedback(
  place: ListPlace,
  filters: { search: string; from: string; state?: FeedbackState },
  signal?: AbortSignal,
): Promise<ListOf<Feedback>> {
  return api.get<ListOf<Feedback>>(
    '/feedback/all',
    { ...placeQuery(place, FEEDBACK_PAGE_SIZE), search: filters.search || undefined, from: filters.from || undefined, state: filters.state },
    signal,
  );
}

export async function deleteFeedback(id: string): Promise<void> {
  await api.delete(`/feedback/${encodeURIComponent(id)}`);
}

/** Marks a message handled (by the administrator whose session it is) or waiting again. */
export async function markFeedbackHandled(id: string, handled: boolean): Promise<Feedback> {
  return (await api.patch<Envelope<Feedback>>(`/feedback/${encodeURIComponent(id)}`, { handled })).data;
}

/** E-mails the answer to the message's sender through the shop's mail; the server's words say where it went. */
export async function answerFeedback(id: string, text: string): Promise<{ data: Feedback; message: string }> {
  return api.post<{ data: Feedback; message: string }>(`/feedback/${encodeURIComponent(id)}/answer`, { text });
}
