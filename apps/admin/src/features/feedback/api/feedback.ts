import type { Feedback, ListOf } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';

export const FEEDBACK_PAGE_SIZE = 20;

export function listFeedback(page: number, signal?: AbortSignal): Promise<ListOf<Feedback>> {
  return api.get<ListOf<Feedback>>('/feedback/all', { page, limit: FEEDBACK_PAGE_SIZE }, signal);
}

export async function deleteFeedback(id: string): Promise<void> {
  await api.delete(`/feedback/${encodeURIComponent(id)}`);
}
