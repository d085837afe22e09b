// The admin session check every replica shares in the real Redis (issue 25): one replica's answer
// saves the others a call to the admin service; a logout (the admin service writing "revoked") is
// refused by every replica from the next request, though "active" was cached; with Redis away the
// admin service is asked each time, and no request waits long for Redis.
import Redis from 'ioredis';
import { describeWithRedis, freePort, TEST_REDIS_URL, uniqueName } from '@persona/test-kit';
import { ACTIVE_SECONDS, cachedSessionCheck, redisSessionCache, REVOKED_SECONDS, type SessionCache } from '../src';

/** The admin service's answer, counted: sessions in `loggedOut` are revoked. */
function adminService(loggedOut: Set<string>) {
  const asked: string[] = [];
  return { asked, check: async (jti: string) => (asked.push(jti), loggedOut.has(jti)) };
}

describeWithRedis()('the session check in Redis', () => {
  const caches: SessionCache[] = [];
  const redis = new Redis(TEST_REDIS_URL);
  const cache = () => {
    const c = redisSessionCache(TEST_REDIS_URL);
    caches.push(c);
    return c;
  };
  afterAll(async () => {
    for (const c of caches) await c.close();
    await redis.quit();
  });

  it('asks the admin service once for every replica, and a logout is refused everywhere at once', async () => {
    const jti = uniqueName('jti');
    const loggedOut = new Set<string>();
    const admin = adminService(loggedOut);
    const [a, b] = [cachedSessionCheck(admin.check, cache()), cachedSessionCheck(admin.check, cache())];
    expect(await a(jti)).toBe(false);
    expect(await b(jti)).toBe(false);
    expect(await a(jti)).toBe(false);
    expect(admin.asked).toEqual([jti]);
    const ttl = await redis.ttl(`persona:session:${jti}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(ACTIVE_SECONDS);

    // The admin service logs the session out and says so in the shared cache.
    loggedOut.add(jti);
    await cache().remember(jti, true);
    expect([await a(jti), await b(jti)]).toEqual([true, true]);
    expect(admin.asked).toEqual([jti]);
    expect(await redis.ttl(`persona:session:${jti}`)).toBeGreaterThan(ACTIVE_SECONDS);
    expect(await redis.ttl(`persona:session:${jti}`)).toBeLessThanOrEqual(REVOKED_SECONDS);
    await redis.del(`persona:session:${jti}`);
  });
});

describe('the session check without Redis', () => {
  it('asks the admin service every time, and a Redis that does not answer holds no request long', async () => {
    const admin = adminService(new Set(['gone']));
    expect(cachedSessionCheck(admin.check, undefined)).toBe(admin.check);
    const away = redisSessionCache(`redis://127.0.0.1:${await freePort()}`);
    try {
      const check = cachedSessionCheck(admin.check, away);
      const started = Date.now();
      expect([await check('here'), await check('here'), await check('gone')]).toEqual([false, false, true]);
      expect(admin.asked).toEqual(['here', 'here', 'gone']);
      // Only the first use waits for a connection (at most 500 ms); then nothing waits for an absent Redis.
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      await away.close();
    }
  });
});
