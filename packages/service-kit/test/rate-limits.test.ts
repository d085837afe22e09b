// The rate limits two replicas share through the real Redis (issue 25): a client's requests count
// once across both, whichever answers; without Redis each counts its own; with Redis away requests
// pass (the limit is a flood guard, not a reason to refuse buyers); limiters never mix their counts.
import Fastify, { type FastifyInstance } from 'fastify';
import Redis from 'ioredis';
import { describeWithRedis, freePort, TEST_REDIS_URL, uniqueName } from '@persona/test-kit';
import { registerRouteRateLimits, sharedLimits } from '../src';

/** A replica of a service with one limited route (3 a minute per client), its limits in `redisUrl` or its own memory. */
async function replica(redisUrl: string | undefined, name: string): Promise<FastifyInstance> {
  const app = Fastify();
  await registerRouteRateLimits(app, 'lookups', sharedLimits(app, redisUrl, name));
  app.get('/lookup', { config: { rateLimit: { max: 3, timeWindow: '1 minute' } } }, async () => ({ ok: true }));
  await app.ready();
  return app;
}

const statuses = async (apps: FastifyInstance[], sequence: number[]) => {
  const out: number[] = [];
  for (const i of sequence) out.push((await apps[i]!.inject({ method: 'GET', url: '/lookup', remoteAddress: '203.0.113.7' })).statusCode);
  return out;
};

describe('rate limits without Redis', () => {
  it('are each replica’s own', async () => {
    const apps = [await replica(undefined, 'orders'), await replica(undefined, 'orders')];
    try {
      expect(await statuses(apps, [0, 0, 0, 1, 1, 1, 0])).toEqual([200, 200, 200, 200, 200, 200, 429]);
    } finally {
      for (const app of apps) await app.close();
    }
  });

  it('let requests through while Redis does not answer, and say so once', async () => {
    const app = Fastify({ logger: false });
    const warned: string[] = [];
    app.log.warn = ((obj: unknown, msg?: string) => void warned.push(msg ?? String(obj))) as typeof app.log.warn;
    await registerRouteRateLimits(app, 'lookups', sharedLimits(app, `redis://127.0.0.1:${await freePort()}`, uniqueName('away')));
    app.get('/lookup', { config: { rateLimit: { max: 1, timeWindow: '1 minute' } } }, async () => ({ ok: true }));
    try {
      expect(await statuses([app], [0, 0, 0])).toEqual([200, 200, 200]);
      expect(warned.filter((m) => m.startsWith('Redis is not answering'))).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});

describeWithRedis()('rate limits in Redis', () => {
  const redis = new Redis(TEST_REDIS_URL);
  afterAll(async () => {
    await redis.quit();
  });

  it('count a client once across two replicas, and keep each limiter’s counts apart', async () => {
    const name = uniqueName('orders');
    const apps = [await replica(TEST_REDIS_URL, name), await replica(TEST_REDIS_URL, name)];
    const other = await replica(TEST_REDIS_URL, uniqueName('admin'));
    try {
      // Two here and one there use the client's three; the fourth is refused by either.
      expect(await statuses(apps, [0, 1, 0, 1, 0])).toEqual([200, 200, 200, 429, 429]);
      const refused = await apps[1]!.inject({ method: 'GET', url: '/lookup', remoteAddress: '203.0.113.7' });
      expect(refused.json().message).toMatch(/^Too many lookups; please try again in \d+ seconds$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another client, and another service's limiter, start afresh.
      expect((await apps[0]!.inject({ method: 'GET', url: '/lookup', remoteAddress: '203.0.113.8' })).statusCode).toBe(200);
      expect(await statuses([other], [0])).toEqual([200]);
      // The count is in Redis under the limiter's own prefix.
      expect((await redis.keys(`persona:rl:${name}:*`)).length).toBeGreaterThan(0);
    } finally {
      for (const app of [...apps, other]) await app.close();
      const keys = await redis.keys(`persona:rl:${name}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
  });
});
