import { ApiError, apiDownload, apiRequest, buildUrl, onUnauthorized, SHED_RETRY_MAX_MS } from './api-client';

type FetchArgs = [string, RequestInit];
let calls: FetchArgs[] = [];
let nextResponse: () => Response;
const store = new Map<string, string>();

beforeAll(() => {
  (globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => void store.set(key, value),
    removeItem: (key: string) => void store.delete(key),
  };
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    calls.push([url, init]);
    return nextResponse();
  }) as typeof fetch;
});
beforeEach(() => {
  calls = [];
  store.clear();
  onUnauthorized(null);
});

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('the API client', () => {
  it('builds /api URLs and leaves out empty query values', () => {
    expect(buildUrl('books', { search: 'tea', tag: '', page: 2, x: undefined, y: null })).toBe('/api/books?search=tea&page=2');
  });

  it('sends JSON with the stored token as a bearer header and answers the parsed body', async () => {
    store.set('token', 'abc');
    nextResponse = json(200, { data: { ok: true } });
    await expect(apiRequest('/categories', { method: 'POST', body: { name: 'Poetry' } })).resolves.toEqual({ data: { ok: true } });
    const [url, init] = calls[0];
    expect(url).toBe('/api/categories');
    expect(init.body).toBe('{"name":"Poetry"}');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer abc', 'Content-Type': 'application/json' });
  });

  it("turns a failure into an ApiError carrying the server's message, else the status text", async () => {
    nextResponse = json(409, { statusCode: 409, error: 'Conflict', message: 'Category is still used by 2 books' });
    await expect(apiRequest('/categories/1', { method: 'DELETE' })).rejects.toEqual(new ApiError(409, 'Category is still used by 2 books'));
    nextResponse = json(400, {
      statusCode: 400,
      error: 'Bad Request',
      code: 'BAD_CURSOR',
      message: 'That page link is no longer valid; start again from the first page',
    });
    await expect(apiRequest('/orders')).rejects.toMatchObject({ status: 400, code: 'BAD_CURSOR' });
    nextResponse = () => new Response('<html>oops</html>', { status: 502, statusText: 'Bad Gateway' });
    await expect(apiRequest('/books')).rejects.toMatchObject({ status: 502, message: 'Bad Gateway' });
  });

  describe('when the shop sheds a request (503 with Retry-After)', () => {
    const shed = json(503, { statusCode: 503, error: 'Service Unavailable', code: 'UNDER_PRESSURE', message: 'The shop is very busy' }, { 'retry-after': '5' });
    // (Only the timers: reading a Response's body needs the real setImmediate.)
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
    afterEach(() => jest.useRealTimers());

    it('asks for a read once more after the wait it names, and answers the second reply', async () => {
      const replies = [shed, json(200, { data: [1] })];
      nextResponse = () => replies.shift()!();
      const answer = apiRequest('/books');
      await jest.advanceTimersByTimeAsync(4_999);
      expect(calls).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      await expect(answer).resolves.toEqual({ data: [1] });
      expect(calls.map(([url]) => url)).toEqual(['/api/books', '/api/books']);
    });

    it('asks only once more, and never waits past the cap', async () => {
      nextResponse = json(503, { message: 'busy', code: 'UNDER_PRESSURE' }, { 'retry-after': '3600' });
      const answer = apiRequest('/books');
      const failed = expect(answer).rejects.toMatchObject({ status: 503, code: 'UNDER_PRESSURE' });
      await jest.advanceTimersByTimeAsync(SHED_RETRY_MAX_MS);
      await failed;
      expect(calls).toHaveLength(2);
    });

    it('never repeats a write, nor a 503 without Retry-After', async () => {
      nextResponse = shed;
      await expect(apiRequest('/orders', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 503, code: 'UNDER_PRESSURE' });
      nextResponse = json(503, { message: 'down' });
      await expect(apiRequest('/books')).rejects.toMatchObject({ status: 503, message: 'down' });
      expect(calls).toHaveLength(2);
    });

    it('stops waiting when the caller aborts', async () => {
      nextResponse = shed;
      const controller = new AbortController();
      const answer = apiRequest('/books', { signal: controller.signal });
      const aborted = expect(answer).rejects.toMatchObject({ name: 'AbortError' });
      await jest.advanceTimersByTimeAsync(1_000);
      controller.abort();
      await aborted;
      expect(calls).toHaveLength(1);
    });
  });

  it('calls the unauthorized handler on a 401 only when a token was sent', async () => {
    const seen: number[] = [];
    onUnauthorized((error) => seen.push(error.status));
    nextResponse = json(401, { message: 'Invalid credentials' });
    await expect(apiRequest('/admin/login', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 401 });
    expect(seen).toEqual([]);
    store.set('token', 'expired');
    await expect(apiRequest('/orders')).rejects.toMatchObject({ status: 401, message: 'Invalid credentials' });
    expect(seen).toEqual([401]);
  });

  it('downloads a file with the name the server suggests', async () => {
    nextResponse = () => new Response('Email\r\na@b.in\r\n', { status: 200, headers: { 'content-disposition': 'attachment; filename="subscribers.csv"' } });
    const { blob, filename } = await apiDownload('/admin/subscribers/export');
    expect(filename).toBe('subscribers.csv');
    expect(await blob.text()).toBe('Email\r\na@b.in\r\n');
  });
});
