import { SUBSCRIBED, SUBSCRIPTION_FAILED, subscribeToNewsletter, subscriptionErrorText } from './subscribe';

type Answer = () => Response | Promise<Response>;
let answer: Answer;
let sent: Array<{ url: string; init: RequestInit }> = [];
const realFetch = globalThis.fetch;

beforeAll(() => {
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return answer();
  }) as typeof fetch;
});
afterAll(() => {
  globalThis.fetch = realFetch;
});
beforeEach(() => {
  sent = [];
});

const json =
  (status: number, body: unknown): Answer =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function failureText(): Promise<string> {
  try {
    await subscribeToNewsletter('reader@example.com');
  } catch (error) {
    return subscriptionErrorText(error);
  }
  throw new Error('the subscription did not fail');
}

describe('newsletter subscription', () => {
  it('posts the address as JSON and answers the server message, new or already subscribed', async () => {
    answer = json(200, { message: 'Thank you for subscribing!' });
    await expect(subscribeToNewsletter('reader@example.com')).resolves.toBe('Thank you for subscribing!');
    expect(sent[0]!.url).toBe('/api/newsletter/subscribe');
    expect(sent[0]!.init.method).toBe('POST');
    expect(sent[0]!.init.body).toBe('{"email":"reader@example.com"}');

    answer = json(200, { message: 'You are already subscribed.' });
    await expect(subscribeToNewsletter('reader@example.com')).resolves.toBe('You are already subscribed.');
  });

  it('thanks the visitor when a successful answer carries no message', async () => {
    answer = () => new Response(null, { status: 204 });
    await expect(subscribeToNewsletter('reader@example.com')).resolves.toBe(SUBSCRIBED);
  });

  it("shows the server's error text for any refusal, client or server side", async () => {
    answer = json(400, { statusCode: 400, error: 'Bad Request', message: 'body field "email" must be a valid email' });
    await expect(failureText()).resolves.toBe('body field "email" must be a valid email');
    answer = json(429, { statusCode: 429, error: 'Too Many Requests', message: 'Too many requests; please try again in 30 seconds' });
    await expect(failureText()).resolves.toBe('Too many requests; please try again in 30 seconds');
    answer = json(503, { statusCode: 503, error: 'Service Unavailable', message: 'The admin service is unavailable, please try again shortly' });
    await expect(failureText()).resolves.toBe('The admin service is unavailable, please try again shortly');
  });

  it('falls back to "Subscription failed" when the server explained nothing or was never reached', async () => {
    expect(SUBSCRIPTION_FAILED).toBe('Subscription failed');
    answer = () => new Response('<html><body>Bad Gateway</body></html>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } });
    await expect(failureText()).resolves.toBe(SUBSCRIPTION_FAILED);
    answer = () => new Response('', { status: 500 });
    await expect(failureText()).resolves.toBe(SUBSCRIPTION_FAILED);
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(failureText()).resolves.toBe(SUBSCRIPTION_FAILED);
  });
});
