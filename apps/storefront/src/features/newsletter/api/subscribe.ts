// POST /api/newsletter/subscribe: the text a visitor reads afterwards, whichever way it went (spec §7).
import { api } from '@persona/web-kit/api-client';
import { serverMessage } from '../../../lib/server-message';

export const SUBSCRIPTION_FAILED = 'Subscription failed';
export const SUBSCRIBED = 'Thanks for subscribing!';

/** Posts the address; answers the server's message (new or already subscribed alike), throwing when refused. */
export async function subscribeToNewsletter(email: string): Promise<string> {
  const answer = await api.post<{ message?: string } | undefined>('/newsletter/subscribe', { email });
  return answer?.message || SUBSCRIBED;
}

/** Spec §7: a failed subscription shows the server's error text, else "Subscription failed". */
export function subscriptionErrorText(error: unknown): string {
  return serverMessage(error) ?? SUBSCRIPTION_FAILED;
}
