// POST /api/feedback: a contact message goes to the admin service, so the admin's Feedback page shows it (DESIGN §9.9).
import type { Feedback, FeedbackBody } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';

export interface SentFeedback {
  data: Feedback;
  message: string;
}

/** Sends the message; throws ApiError carrying the server's message when it is refused (4xx, rate limit). */
export function sendContactMessage(body: FeedbackBody, signal?: AbortSignal): Promise<SentFeedback> {
  return api.post<SentFeedback>('/feedback', body, signal);
}
