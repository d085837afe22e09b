// The admin session check shared by every replica (issue 25). Without it every admin request costs
// each verifier a call to the admin service. With REDIS_URL the answer is kept in Redis: an active
// session for ACTIVE_SECONDS, a logged-out one for a day (longer than any token lives). Logging out
// writes "revoked" there at once, so every replica of every service refuses the token from the
// next request on, not after the cache expires. While Redis is away the admin service is asked, as
// without it.
import { lazyRedis } from './redis-shared';

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
  const { redis, usable, answered, close } = lazyRedis(redisUrl);
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
    close,
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
