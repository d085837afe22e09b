// What replicas share through the real Redis besides limits and sessions: bytes every replica
// reads (kept for their time only), and a broadcast each member hears the others on (never its own
// message), which tells a member to forget everything when its subscription was cut (messages
// lost); and, without Redis, no request waits long for it.
import Redis from 'ioredis';
import { describeWithRedis, freePort, TEST_REDIS_URL, uniqueName } from '@persona/test-kit';
import { redisBroadcast, redisSharedBytes, type Broadcast } from '../src';

const until = async (check: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describeWithRedis()('shared through Redis', () => {
  const redis = new Redis(TEST_REDIS_URL);
  afterAll(async () => {
    await redis.quit();
  });

  it('keeps bytes for every replica, for their time only', async () => {
    const prefix = `${uniqueName('bytes')}:`;
    const [a, b] = [redisSharedBytes(TEST_REDIS_URL, prefix, 60), redisSharedBytes(TEST_REDIS_URL, prefix, 60)];
    try {
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255, 13, 10]);
      expect(await b.get('k')).toBeUndefined();
      await a.set('k', png.subarray(2, 7));
      expect(Array.from((await b.get('k'))!)).toEqual([0x4e, 0x47, 0, 255, 13]);
      const ttl = await redis.ttl(`${prefix}k`);
      expect(ttl).toBeGreaterThan(50);
      expect(ttl).toBeLessThanOrEqual(60);
      await redis.del(`${prefix}k`);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('carries a message to every other member, not back to its sender, and says when messages may have been lost', async () => {
    const channel = uniqueName('channel');
    const heard: Array<{ who: string; message: string[] }> = [];
    const resyncs: string[] = [];
    const member = (who: string) =>
      redisBroadcast<string[]>(TEST_REDIS_URL, channel, {
        receive: (message) => heard.push({ who, message }),
        resync: () => resyncs.push(who),
      });
    const members: Broadcast<string[]>[] = [member('a'), member('b'), member('c')];
    try {
      await Promise.all(members.map((m) => m.subscribed));
      await members[0]!.publish(['/api/books']);
      await until(() => heard.length === 2);
      expect(heard.map((h) => h.who).sort()).toEqual(['b', 'c']);
      expect(heard[0]!.message).toEqual(['/api/books']);
      // Not JSON, or not an envelope: ignored.
      await redis.publish(channel, 'not json');
      await redis.publish(channel, JSON.stringify({ from: 'someone' }));

      // Redis drops every subscriber's connection (as a restart would): each comes back and resyncs.
      await redis.client('KILL', 'TYPE', 'pubsub');
      await until(() => resyncs.length >= 3);
      expect([...new Set(resyncs)].sort()).toEqual(['a', 'b', 'c']);
      // ...and hears the others again.
      // (The subscription is renewed as the connection comes back: the message is sent until it is heard.)
      heard.length = 0;
      const hearers = () => [...new Set(heard.map((h) => h.who))].sort();
      for (let i = 0; i < 50 && hearers().length < 2; i += 1) {
        await members[2]!.publish(['/api/categories']);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(hearers()).toEqual(['a', 'b']);
      expect(heard.every((h) => h.message[0] === '/api/categories')).toBe(true);
    } finally {
      await Promise.all(members.map((m) => m.close()));
    }
  });
});

describe('shared through a Redis that does not answer', () => {
  it('misses and loses messages quickly instead of holding a request', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const bytes = redisSharedBytes(url, 'p:', 60);
    const channel = redisBroadcast<string[]>(url, 'c', { receive: () => undefined, resync: () => undefined });
    try {
      const started = Date.now();
      await bytes.set('k', new Uint8Array([1]));
      expect(await bytes.get('k')).toBeUndefined();
      await channel.publish(['/api/books']);
      await channel.publish(['/api/books']);
      expect(Date.now() - started).toBeLessThan(2500);
    } finally {
      await Promise.all([bytes.close(), channel.close()]);
    }
  });
});
