// A GET to another service: headers carried, each outcome named, never a thrown fetch error.
import Fastify, { type FastifyInstance } from 'fastify';
import { dataOf, getFromService } from '../src/service-client';
import { INTERNAL_TOKEN_HEADER } from '../src/secrets';

describe('getFromService', () => {
  let app: FastifyInstance;
  let base: string;
  const seen: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    app = Fastify();
    app.get('/ok', async (request) => {
      seen.push({ ...request.headers });
      return { data: { title: 'Gitanjali' } };
    });
    app.get('/bad', async (_request, reply) => reply.status(400).send({ message: 'no' }));
    app.get('/boom', async (_request, reply) => reply.status(502).send({ message: 'down' }));
    app.get('/text', async (_request, reply) => reply.status(500).type('text/plain').send('message: not json'));
    app.get('/huge', async (_request, reply) => reply.status(500).send({ message: 'x'.repeat(10_000) }));
    app.get('/slow', async () => new Promise((resolve) => setTimeout(() => resolve({ data: 1 }), 400)));
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('carries the correlation id and the internal token, and reads the data', async () => {
    const answer = await getFromService(base, '/ok', { correlationId: 'corr-1', internalToken: 'tok', timeoutMs: 1000 });
    expect(answer.ok).toBe(true);
    if (answer.ok) expect(await dataOf<{ title: string }>(answer.response)).toEqual({ title: 'Gitanjali' });
    expect(seen.at(-1)).toMatchObject({ 'x-correlation-id': 'corr-1', [INTERNAL_TOKEN_HEADER]: 'tok' });
  });

  it('names a missing, refused, failed and unreachable answer', async () => {
    const outcome = async (path: string, timeoutMs = 1000) => {
      const answer = await getFromService(base, path, { timeoutMs });
      return answer.ok ? 'ok' : answer.outcome;
    };
    expect(await outcome('/nothing-here')).toBe('missing');
    expect(await outcome('/bad')).toBe('refused');
    expect(await outcome('/boom')).toBe('failed');
    expect(await outcome('/slow', 100)).toBe('unreachable');
    expect(await getFromService('http://127.0.0.1:1', '/ok', { timeoutMs: 1000 })).toMatchObject({ ok: false, outcome: 'unreachable' });
  });

  it("says why in the detail when the answer's message does, and only then", async () => {
    expect(await getFromService(base, '/bad', { timeoutMs: 1000 })).toMatchObject({ detail: 'answered 400 for /bad: no' });
    expect(await getFromService(base, '/boom', { timeoutMs: 1000 })).toMatchObject({ detail: 'answered 502 for /boom: down' });
    expect(await getFromService(base, '/text', { timeoutMs: 1000 })).toMatchObject({ detail: 'answered 500 for /text' });
    expect(await getFromService(base, '/huge', { timeoutMs: 1000 })).toMatchObject({ detail: 'answered 500 for /huge' });
  });
});
