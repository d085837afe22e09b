// The admin session check shared by every replica (issue 25). Without it every admin request costs
// each verifier a call to the admin service. With REDIS_URL the answer is kept in Redis: an active
// session for ACTIVE_SECONDS, a logged-out one for a day (longer than any token lives). Logging out
// writes "revoked" there at once, so every replica of every service refuses the token from the
// next request on, not after the cache expires. While Redis is away the admin service is asked, as
// without it.
import Redis from 'ioredis';

/** How long a replica trusts "active" without asking: logging out overwrites it at once anyway. */
export const ACTIVE_SECONDS = 30;
/** How long "revoked" is kept: longer than an admin token lives. */
export const REVOKED_SECONDS = 86_400;

const keyOf = (jti: string) => `persona:session:${jti}`;

export interface SessionCache {
  /** Whether the session is revoked, from the cache; undefined when it does not know (or Redis is away). */
  known(jti: string): Promise<boolean | undefined>;
  /** Keeps the admin service's answer. */
  remember(jti: string, revoked: boolean): Promise<void>;
  close(): Promise<void>;
}

/** The cache in the Redis of `redisUrl`; connects on first use, never holds a request while Redis is away. */
export function redisSessionCache(redisUrl: string): SessionCache {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    retryStrategy: (n) => Math.min(n * 200, 2000),
  });
  // Errors are answered per command (the admin service is asked instead); the event needs a listener.
  redis.on('error', () => undefined);
  const answered = <T>(command: Promise<T>): Promise<T | undefined> =>
    Promise.race([command.catch(() => undefined), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 500).unref())]);
  /** Ready to answer: the first use connects (waiting up to 500 ms); while Redis is away, nothing waits for it. */
  const usable = async () => {
    if (redis.status === 'wait') await answered(redis.connect());
    return redis.status === 'ready';
  };
  return {
    async known(jti) {
      if (!(await usable())) return undefined;
      const value = await answered(redis.get(keyOf(jti)));
      return value === 'revoked' ? true : value === 'active' ? false : undefined;
    },
    async remember(jti, revoked) {
      if (!(await usable())) return;
      await answered(redis.set(keyOf(jti), revoked ? 'revoked' : 'active', 'EX', revoked ? REVOKED_SECONDS : ACTIVE_SECONDS));
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** A session check that asks the cache first and keeps what `check` (the admin service) answers. */
export function cachedSessionCheck(check: (jti: string) => Promise<boolean>, cache: SessionCache | undefined): (jti: string) => Promise<boolean> {
  if (!cache) return check;
  return async (jti) => {
    const known = await cache.known(jti);
    if (known !== undefined) return known;
    const revoked = await check(jti);
    await cache.remember(jti, revoked);
    return revoked;
  };
}
