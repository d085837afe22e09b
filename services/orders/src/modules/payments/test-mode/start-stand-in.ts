// Test mode's wiring: the Razorpay stand-in listens on loopback like a remote
// API (the SDK is pointed at it) and sends its signed webhooks to our real
// webhook route. With REDIS_URL its orders, payments and refunds are kept in
// Redis, so every replica's stand-in answers for the same account.
import Fastify from 'fastify';
import type { RazorpayKeys } from '../razorpay/razorpay-provider';
import { RazorpayStandIn, type DeliverWebhook, type StandInRefund } from './razorpay-stand-in';
import { MemoryStandInStore, RedisStandInStore } from './stand-in-store';

export interface StandIn {
  /** What checkout.js would do when a buyer pays or is declined. */
  pay: RazorpayStandIn['pay'];
  /** The stand-in's API base URL. */
  url: string;
  /** How its refunds behave (tests: drop an answer, fail, take longer); this process's own. */
  refundBehaviour: RazorpayStandIn['refundBehaviour'];
  /** The refunds it has made (with REDIS_URL, every replica's). */
  refunds(): Promise<StandInRefund[]>;
  /** When its transactions settle (tests: at once); this process's own. */
  settlementBehaviour: RazorpayStandIn['settlementBehaviour'];
  close(): Promise<void>;
}

export interface StandInOptions {
  /** Keep the state in this Redis (REDIS_URL), shared with every replica's stand-in. */
  redisUrl?: string;
  /** Its keys' prefix in Redis; by default one per account (key id). */
  keyPrefix?: string;
}

/** The prefix of a stand-in's keys in Redis: one Razorpay account per key id. */
export const standInKeyPrefix = (keyId: string) => `persona:stand-in:${keyId}:`;

export async function startStandIn(keys: RazorpayKeys, deliverWebhook: DeliverWebhook, options: StandInOptions = {}): Promise<StandIn> {
  const store = options.redisUrl ? new RedisStandInStore(options.redisUrl, options.keyPrefix ?? standInKeyPrefix(keys.keyId)) : new MemoryStandInStore();
  const standIn = new RazorpayStandIn(keys, deliverWebhook, store);
  const server = Fastify({ logger: false });
  standIn.register(server, '');
  let url: string;
  try {
    url = await server.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    await store.close();
    throw err;
  }
  return {
    pay: (...args) => standIn.pay(...args),
    url,
    refundBehaviour: standIn.refundBehaviour,
    refunds: () => store.allRefunds(),
    settlementBehaviour: standIn.settlementBehaviour,
    async close() {
      await server.close();
      await store.close();
    },
  };
}
