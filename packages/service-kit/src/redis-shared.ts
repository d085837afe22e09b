// What replicas share through Redis besides the limits (issue 25): a lazily connected client whose
// commands never hold a request while Redis is away, a cache of bytes (the dedication previews),
// and a broadcast (the gateways' "forget these answers"). Every use is best effort: without Redis a
// replica keeps its own memory, as a single process always did.
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';

/** How long a request waits for Redis before going on without it. */
export const REDIS_ANSWER_MS = 500;

export interface LazyRedis {
  readonly redis: Redis;
  /** Ready to answer: the first use connects (waiting up to REDIS_ANSWER_MS); while Redis is away, nothing waits for it. */
  usable(): Promise<boolean>;
  /** The command's answer, or undefined when it failed or took longer than REDIS_ANSWER_MS. */
  answered<T>(command: Promise<T>): Promise<T | undefined>;
  close(): Promise<void>;
}

/** A client of the Redis of `redisUrl` that connects on first use and reconnects by itself. */
export function lazyRedis(redisUrl: string): LazyRedis {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    retryStrategy: (n) => Math.min(n * 200, 2000),
  });
  // Errors are answered per command (the caller goes on without Redis); the event needs a listener.
  redis.on('error', () => undefined);
  const answered = <T>(command: Promise<T>): Promise<T | undefined> =>
    Promise.race([command.catch(() => undefined), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), REDIS_ANSWER_MS).unref())]);
  return {
    redis,
    answered,
    async usable() {
      if (redis.status === 'wait') await answered(redis.connect());
      return redis.status === 'ready';
    },
    close: () => closeRedis(redis),
  };
}

/** Says goodbye to a Redis that answers; drops the connection (and its reconnecting) to one that does not. */
async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
}

/** Bytes kept for every replica, each for `ttlSeconds`; misses (and a Redis away) read as undefined. */
export interface SharedBytes {
  get(key: string): Promise<Uint8Array | undefined>;
  set(key: string, value: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export function redisSharedBytes(redisUrl: string, prefix: string, ttlSeconds: number): SharedBytes {
  const client = lazyRedis(redisUrl);
  return {
    async get(key) {
      if (!(await client.usable())) return undefined;
      const value = await client.answered(client.redis.getBuffer(prefix + key));
      return value ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : undefined;
    },
    async set(key, value) {
      if (!(await client.usable())) return;
      await client.answered(client.redis.set(prefix + key, Buffer.from(value.buffer, value.byteOffset, value.byteLength), 'EX', ttlSeconds));
    },
    close: () => client.close(),
  };
}

export interface Broadcast<T> {
  /** Sends `message` to every other member (not back to this one); lost while Redis is away. */
  publish(message: T): Promise<void>;
  /** Resolves once the subscription is in place (or Redis said it is away): tests, and a start that wants it. */
  readonly subscribed: Promise<void>;
  close(): Promise<void>;
}

export interface BroadcastHandlers<T> {
  /** A message another member published. */
  receive(message: T): void;
  /**
   * The subscription came back after Redis was away: messages may have been lost meanwhile, so a
   * member forgets whatever they would have told it about.
   */
  resync(): void;
}

/**
 * A channel every member (every replica that opens it) hears the others on: Redis pub/sub, on a
 * connection of its own (a subscribed connection takes no other command). Each member has an id,
 * so it does not act on its own messages.
 */
export function redisBroadcast<T>(redisUrl: string, channel: string, handlers: BroadcastHandlers<T>): Broadcast<T> {
  const me = randomUUID();
  const publisher = lazyRedis(redisUrl);
  const subscriber = new Redis(redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1, retryStrategy: (n) => Math.min(n * 200, 2000) });
  subscriber.on('error', () => undefined);
  let connectedBefore = false;
  subscriber.on('ready', () => {
    // ioredis subscribes again by itself on a reconnect; what went by meanwhile is lost.
    if (connectedBefore) handlers.resync();
    connectedBefore = true;
  });
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    let envelope: { from?: unknown; message?: T };
    try {
      envelope = JSON.parse(text) as { from?: unknown; message?: T };
    } catch {
      return;
    }
    if (envelope.from !== me && envelope.message !== undefined) handlers.receive(envelope.message);
  });
  const subscribed = subscriber.subscribe(channel).then(
    () => undefined,
    () => undefined,
  );
  return {
    subscribed,
    async publish(message) {
      if (!(await publisher.usable())) return;
      await publisher.answered(publisher.redis.publish(channel, JSON.stringify({ from: me, message })));
    },
    async close() {
      await Promise.all([publisher.close(), closeRedis(subscriber)]);
    },
  };
}
