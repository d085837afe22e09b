import { api, ApiError } from '@persona/web-kit/api-client';

export const SUBSCRIPTION_FAILED = 'Subscription failed';

/** Posts the address; answers the text to show (the server's message), throwing a readable error. */
export async function subscribeToNewsletter(email: string): Promise<string> {
  const answer = await api.post<{ message?: string }>('/newsletter/subscribe', { email });
  return answer?.message || 'Thanks for subscribing!';
}

/** The text for a failed subscription: the server's own words for a refused address, else the fallback. */
export function subscriptionErrorText(error: unknown): string {
  // A missing endpoint (404) or a broken server says nothing useful to a visitor.
  if (error instanceof ApiError) return error.status === 404 || error.status >= 500 ? SUBSCRIPTION_FAILED : error.message || SUBSCRIPTION_FAILED;
  return SUBSCRIPTION_FAILED;
}
