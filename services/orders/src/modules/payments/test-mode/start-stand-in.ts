// Test mode's wiring: the Razorpay stand-in listens on loopback like a remote
// API (the SDK is pointed at it) and sends its signed webhooks to our real
// webhook route.
import Fastify from 'fastify';
import type { RazorpayKeys } from '../razorpay/razorpay-provider';
import { RazorpayStandIn, type DeliverWebhook } from './razorpay-stand-in';

export interface StandIn {
  /** What checkout.js would do when a buyer pays or is declined. */
  pay: RazorpayStandIn['pay'];
  /** The stand-in's API base URL. */
  url: string;
  /** How its refunds behave (tests: drop an answer, fail, take longer). */
  refundBehaviour: RazorpayStandIn['refundBehaviour'];
  /** The refunds it has made. */
  refunds: RazorpayStandIn['refunds'];
  /** When its transactions settle (tests: at once). */
  settlementBehaviour: RazorpayStandIn['settlementBehaviour'];
  close(): Promise<void>;
}

export async function startStandIn(keys: RazorpayKeys, deliverWebhook: DeliverWebhook): Promise<StandIn> {
  const standIn = new RazorpayStandIn(keys, deliverWebhook);
  const server = Fastify({ logger: false });
  standIn.register(server, '');
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  return {
    pay: (...args) => standIn.pay(...args),
    url,
    refundBehaviour: standIn.refundBehaviour,
    refunds: standIn.refunds,
    settlementBehaviour: standIn.settlementBehaviour,
    close: () => server.close(),
  };
}
