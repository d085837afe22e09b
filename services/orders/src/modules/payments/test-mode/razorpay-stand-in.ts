// Test mode's local Razorpay (DESIGN §4): the orders API with Basic auth and
// Razorpay's ids, validation and error shapes, plus what checkout.js and
// Razorpay's servers would do when a buyer pays or is declined: hand the
// browser a signed payment and send us signed webhooks with event ids. The
// shop's real verify and webhook code runs against it. Its records are in a StandInStore
// (stand-in-store.ts): this process's memory, or with REDIS_URL one Redis for every replica's stand-in.
import { randomBytes } from 'node:crypto';
import { sameSecret } from '@persona/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RazorpayKeys } from '../razorpay/razorpay-provider';
import { paymentSignature, webhookSignature } from '../razorpay/razorpay-signatures';
import { MemoryStandInStore, type CaptureResult, type StandInOrder, type StandInPayment, type StandInRefund, type StandInStore } from './stand-in-store';

export type { StandInOrder, StandInPayment, StandInRefund } from './stand-in-store';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export function razorpayId(prefix: 'order' | 'pay' | 'evt' | 'rfnd'): string {
  const bytes = randomBytes(14);
  return `${prefix}_${Array.from(bytes, (b) => BASE62[b % 62]).join('')}`;
}

export interface WebhookDelivery {
  eventId: string;
  body: string;
  signature: string;
}

export type DeliverWebhook = (delivery: WebhookDelivery) => Promise<void>;

const rzpError = (reply: FastifyReply, status: number, description: string, field?: string) =>
  reply.status(status).send({
    error: {
      code: 'BAD_REQUEST_ERROR',
      description,
      source: 'business',
      step: 'payment_initiation',
      reason: 'input_validation_failed',
      metadata: {},
      ...(field ? { field } : {}),
    },
  });

const ALREADY_CAPTURED = 'This payment has already been captured';
const NOT_AUTHORIZED = 'Only payments which have been authorized and not yet captured can be captured';

/** The stand-in's settlement rule: each transaction settles two days after it was made. */
export const SETTLEMENT_DELAY_MS = 2 * 24 * 3600_000;
/** Its fee: 2% of a payment, plus 18% GST on that fee (the fee reported includes the GST); refunds cost nothing. */
export const FEE_RATE_BP = 200;
export const FEE_GST_RATE_BP = 1800;

/** `paise × rate` rounded half up to the paisa (basis points, integers only). */
const ofRate = (paise: number, rateBp: number) => Math.floor((paise * rateBp + 5_000) / 10_000);

/** The stand-in's fee on a payment, and the GST in it. */
export function standInFee(amountPaise: number): { feePaise: number; taxPaise: number } {
  const base = ofRate(amountPaise, FEE_RATE_BP);
  const taxPaise = ofRate(base, FEE_GST_RATE_BP);
  return { feePaise: base + taxPaise, taxPaise };
}

/** India Standard Time: the recon's year, month and day are India's. */
const IST_OFFSET_S = 330 * 60;
const istDay = (unixSeconds: number) => new Date((unixSeconds + IST_OFFSET_S) * 1000).toISOString().slice(0, 10);

/** One line of Razorpay's settlement recon (GET /v1/settlements/recon/combined). */
interface StandInReconItem {
  entity_id: string;
  type: 'payment' | 'refund';
  debit: number;
  credit: number;
  amount: number;
  currency: string;
  fee: number;
  tax: number;
  on_hold: boolean;
  settled: boolean;
  created_at: number;
  settled_at: number;
  settlement_id: string;
  posted_at: number;
  credit_type: 'default';
  description: string | null;
  notes: Record<string, string> | never[];
  payment_id: string | null;
  settlement_utr: string;
  order_id: string;
  order_receipt: string | null;
  method: 'card';
  card_network: string;
  card_issuer: string;
  card_type: 'credit';
  dispute_id: null;
}

export class RazorpayStandIn {
  /**
   * When a transaction settles to the shop's bank account: `delayMs` after it was made (T+2 days,
   * Razorpay's usual cycle; tests shorten it). The recon lists what has settled by now.
   */
  readonly settlementBehaviour = { delayMs: SETTLEMENT_DELAY_MS };
  /** Test hooks: the next refund request is performed and its answer dropped (the connection cut); how long a refund stays pending. */
  readonly refundBehaviour = { dropNextAnswer: false, processAfterMs: 20, outcome: 'processed' as 'processed' | 'failed' };

  constructor(
    private readonly keys: RazorpayKeys,
    private readonly deliver: DeliverWebhook,
    /** Its orders, payments and refunds: this process's memory, or Redis shared by every replica's stand-in. */
    readonly store: StandInStore = new MemoryStandInStore(),
  ) {}

  private authorised(request: FastifyRequest): boolean {
    const match = /^Basic\s+(.+)$/i.exec(request.headers.authorization ?? '');
    if (!match) return false;
    return sameSecret(Buffer.from(match[1], 'base64'), `${this.keys.keyId}:${this.keys.keySecret}`);
  }

  /** The Razorpay REST API subset the shop uses, under `prefix` (the SDK's base URL). */
  register(app: FastifyInstance, prefix: string): void {
    const guard = async (request: FastifyRequest, reply: FastifyReply) => {
      if (!this.authorised(request)) return rzpError(reply, 401, 'The api key provided is invalid');
    };
    app.post(`${prefix}/v1/orders`, { onRequest: guard }, async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const amount = body.amount;
      if (typeof amount !== 'number' || !Number.isInteger(amount)) return rzpError(reply, 400, 'The amount must be an integer.', 'amount');
      if (amount < 100) return rzpError(reply, 400, 'The amount must be atleast INR 1.00', 'amount');
      if (body.currency !== 'INR') return rzpError(reply, 400, 'The currency is invalid.', 'currency');
      if (body.receipt !== undefined && (typeof body.receipt !== 'string' || body.receipt.length > 40)) {
        return rzpError(reply, 400, 'The receipt may not be greater than 40 characters.', 'receipt');
      }
      const order: StandInOrder = {
        id: razorpayId('order'),
        entity: 'order',
        amount,
        amount_paid: 0,
        amount_due: amount,
        currency: 'INR',
        receipt: (body.receipt as string | undefined) ?? null,
        status: 'created',
        attempts: 0,
        notes: (body.notes as Record<string, string>) ?? {},
        created_at: Math.floor(Date.now() / 1000),
      };
      await this.store.addOrder(order);
      return order;
    });
    app.get(`${prefix}/v1/orders/:id`, { onRequest: guard }, async (request, reply) => {
      const order = await this.store.order((request.params as { id: string }).id);
      return order ?? rzpError(reply, 400, 'The id provided does not exist');
    });
    app.get(`${prefix}/v1/orders/:id/payments`, { onRequest: guard }, async (request, reply) => {
      const id = (request.params as { id: string }).id;
      if (!(await this.store.order(id))) return rzpError(reply, 400, 'The id provided does not exist');
      const items = await this.store.paymentsOf(id);
      return { entity: 'collection', count: items.length, items };
    });
    app.get(`${prefix}/v1/payments/:id`, { onRequest: guard }, async (request, reply) => {
      const payment = await this.store.payment((request.params as { id: string }).id);
      return payment ?? rzpError(reply, 400, 'The id provided does not exist');
    });
    // Razorpay's capture: the whole authorised amount, in the payment's currency, once.
    app.post(`${prefix}/v1/payments/:id/capture`, { onRequest: guard }, async (request, reply) => {
      const payment = await this.store.payment((request.params as { id: string }).id);
      if (!payment) return rzpError(reply, 400, 'The id provided does not exist');
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (payment.status === 'captured') return rzpError(reply, 400, ALREADY_CAPTURED);
      if (payment.status !== 'authorized') return rzpError(reply, 400, NOT_AUTHORIZED);
      if (body.amount !== payment.amount) return rzpError(reply, 400, 'Capture amount must be equal to the amount authorized', 'amount');
      if (body.currency !== payment.currency) return rzpError(reply, 400, 'The currency should be same as the payment currency', 'currency');
      // Checked again as it is captured: another replica's stand-in may have captured it meanwhile.
      const result = await this.captured(payment.id);
      if (result.outcome === 'captured') return result.payment;
      return rzpError(reply, 400, result.outcome === 'already-captured' ? ALREADY_CAPTURED : NOT_AUTHORIZED);
    });
    this.registerRefunds(app, prefix, guard);
    // Razorpay's settlement recon: what settled in a month (or on a day of it), a page at a time.
    app.get(`${prefix}/v1/settlements/recon/combined`, { onRequest: guard }, async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
      const number = (name: string, min: number, max: number, fallback?: number) => {
        const text = query[name];
        if (text === undefined || text === '') return fallback;
        const value = Number(text);
        return /^[0-9]+$/.test(text) && value >= min && value <= max ? value : null;
      };
      const year = number('year', 2000, 9999);
      const month = number('month', 1, 12);
      const day = number('day', 1, 31);
      const count = number('count', 1, 1000, 10);
      const skip = number('skip', 0, Number.MAX_SAFE_INTEGER, 0);
      if (!year) return rzpError(reply, 400, 'The year field is required.', 'year');
      if (!month) return rzpError(reply, 400, 'The month field is required.', 'month');
      if (day === null || count === null || skip === null) return rzpError(reply, 400, 'The day, count or skip is invalid.');
      const wanted = `${year}-${String(month).padStart(2, '0')}${day ? `-${String(day).padStart(2, '0')}` : ''}`;
      const items = (await this.reconItems()).filter((item) => istDay(item.settled_at).startsWith(wanted));
      const page = items.slice(skip!, skip! + count!);
      return { entity: 'collection', count: page.length, items: page };
    });
  }

  /** Every captured payment and processed refund that has settled by now, in the order they settled. */
  async reconItems(now = Date.now()): Promise<StandInReconItem[]> {
    const [payments, refunds] = await Promise.all([this.store.allPayments(), this.store.allRefunds()]);
    const paymentsById = new Map(payments.map((p) => [p.id, p]));
    const orderIds = [...new Set(payments.map((p) => p.order_id))];
    const orders = new Map<string, StandInOrder | undefined>();
    await Promise.all(orderIds.map(async (id) => orders.set(id, await this.store.order(id))));
    const delay = Math.floor(this.settlementBehaviour.delayMs / 1000);
    const settledBy = Math.floor(now / 1000);
    const item = (entity: { id: string; amount: number; created_at: number }, payment: StandInPayment, type: 'payment' | 'refund'): StandInReconItem => {
      const settledAt = entity.created_at + delay;
      const { feePaise, taxPaise } = type === 'payment' ? standInFee(entity.amount) : { feePaise: 0, taxPaise: 0 };
      const order = orders.get(payment.order_id);
      // One settlement a day, named after it, as a bank statement shows one transfer a day.
      const settlementDay = istDay(settledAt).replace(/-/g, '');
      return {
        entity_id: entity.id,
        type,
        debit: type === 'refund' ? entity.amount : 0,
        credit: type === 'payment' ? entity.amount - feePaise : 0,
        amount: entity.amount,
        currency: 'INR',
        fee: feePaise,
        tax: taxPaise,
        on_hold: false,
        settled: true,
        created_at: entity.created_at,
        settled_at: settledAt,
        settlement_id: `setl_PB${settlementDay}0000`,
        posted_at: settledAt,
        credit_type: 'default',
        description: null,
        notes: order?.notes ?? [],
        payment_id: type === 'refund' ? payment.id : null,
        settlement_utr: `PBUTR${settlementDay}`,
        order_id: payment.order_id,
        order_receipt: order?.receipt ?? null,
        method: 'card',
        card_network: 'Visa',
        card_issuer: 'HDFC',
        card_type: 'credit',
        dispute_id: null,
      };
    };
    const items = [
      ...payments.filter((p) => p.captured).map((p) => item(p, p, 'payment')),
      ...refunds.filter((r) => r.status === 'processed' && paymentsById.has(r.payment_id)).map((r) => item(r, paymentsById.get(r.payment_id)!, 'refund')),
    ];
    return items.filter((i) => i.settled_at <= settledBy).sort((a, b) => a.settled_at - b.settled_at || a.created_at - b.created_at);
  }

  /** Razorpay's refunds: X-Refund-Idempotency, amounts in paise up to what was captured, pending then processed (or failed) with webhooks. */
  private registerRefunds(app: FastifyInstance, prefix: string, guard: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>): void {
    app.post(`${prefix}/v1/payments/:id/refund`, { onRequest: guard }, async (request, reply) => {
      const payment = await this.store.payment((request.params as { id: string }).id);
      if (!payment) return rzpError(reply, 400, 'The id provided does not exist');
      const header = request.headers['x-refund-idempotency'];
      const key = typeof header === 'string' ? header : undefined;
      const known = key === undefined ? undefined : await this.store.refundByKey(key);
      if (known) return known;
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (payment.status !== 'captured') return rzpError(reply, 400, 'The payment has not been captured');
      const amount = body.amount ?? payment.amount;
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100) return rzpError(reply, 400, 'The amount must be atleast INR 1.00', 'amount');
      const made = await this.store.addRefund(
        {
          id: razorpayId('rfnd'),
          entity: 'refund',
          amount,
          currency: 'INR',
          payment_id: payment.id,
          notes: (body.notes as Record<string, string>) ?? [],
          status: 'pending',
          speed_requested: body.speed === 'optimum' ? 'optimum' : 'normal',
          created_at: Math.floor(Date.now() / 1000),
        },
        key,
        payment.amount,
      );
      // The same key sent to another replica's stand-in at the same time: the refund it made.
      if (made.outcome === 'known') return made.refund;
      if (made.outcome === 'exceeds') return rzpError(reply, 400, 'The total refund amount is greater than the refund payment amount', 'amount');
      const { refund } = made;
      void this.sendRefundWebhook('refund.created', { ...refund }, payment);
      setTimeout(() => {
        void this.store
          .settleRefund(refund.id, this.refundBehaviour.outcome)
          .then((settled) => settled && this.sendRefundWebhook(settled.status === 'processed' ? 'refund.processed' : 'refund.failed', settled, payment))
          .catch(() => undefined);
      }, this.refundBehaviour.processAfterMs).unref();
      if (this.refundBehaviour.dropNextAnswer) {
        // Performed, and the answer lost on the way back.
        this.refundBehaviour.dropNextAnswer = false;
        request.raw.socket.destroy();
        return reply.hijack();
      }
      return refund;
    });
    app.get(`${prefix}/v1/refunds/:id`, { onRequest: guard }, async (request, reply) => {
      const refund = await this.store.refund((request.params as { id: string }).id);
      return refund ?? rzpError(reply, 400, 'The id provided does not exist');
    });
  }

  private async sendRefundWebhook(event: string, refund: StandInRefund, payment: StandInPayment): Promise<void> {
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_persona_test',
      event,
      contains: ['refund', 'payment'],
      payload: { refund: { entity: { ...refund } }, payment: { entity: payment } },
      created_at: Math.floor(Date.now() / 1000),
    });
    await this.deliverWithRetries({ eventId: razorpayId('evt'), body, signature: webhookSignature(body, this.keys.webhookSecret) });
  }

  /**
   * What happens when the buyer pays (or is declined) in the test-mode dialog:
   * the payment is recorded, the browser gets what checkout.js would give it,
   * and Razorpay's webhooks are sent, signed, in the background.
   */
  async pay(razorpayOrderId: string, outcome: 'success' | 'failure', options: { autoCapture?: boolean } = {}) {
    const known = await this.store.order(razorpayOrderId);
    if (!known) return null;
    // An account with automatic capture (Razorpay's default) captures at once; without it the
    // payment stays authorised until the shop captures it.
    const autoCapture = options.autoCapture ?? true;
    const payment: StandInPayment = {
      id: razorpayId('pay'),
      entity: 'payment',
      amount: known.amount,
      currency: known.currency,
      status: outcome === 'success' ? 'authorized' : 'failed',
      order_id: known.id,
      method: 'card',
      captured: false,
      error_code: outcome === 'success' ? null : 'BAD_REQUEST_ERROR',
      error_description: outcome === 'success' ? null : 'Your payment was declined (test mode).',
      created_at: Math.floor(Date.now() / 1000),
    };
    const order = await this.store.addPayment(payment);
    if (!order) return null;
    if (outcome === 'success' && autoCapture) await this.captured(payment.id);
    else void this.sendWebhook(outcome === 'success' ? 'payment.authorized' : 'payment.failed', order, payment);
    if (outcome === 'success') {
      return {
        razorpay_payment_id: payment.id,
        razorpay_order_id: order.id,
        razorpay_signature: paymentSignature(order.id, payment.id, this.keys.keySecret),
      };
    }
    return {
      error: {
        code: 'BAD_REQUEST_ERROR',
        description: payment.error_description,
        source: 'customer',
        step: 'payment_authorization',
        reason: 'payment_failed',
        metadata: { order_id: order.id, payment_id: payment.id },
      },
    };
  }

  /** A payment captured (once, whichever stand-in asks): its order paid, and Razorpay's webhooks sent. */
  private async captured(paymentId: string): Promise<CaptureResult> {
    const result = await this.store.capture(paymentId);
    if (result.outcome === 'captured') {
      for (const event of ['payment.captured', 'order.paid']) void this.sendWebhook(event, result.order, result.payment);
    }
    return result;
  }

  /** Builds a webhook exactly as Razorpay signs it (also used by tests to play Razorpay). */
  webhook(event: string, order: StandInOrder, payment: StandInPayment): WebhookDelivery {
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_persona_test',
      event,
      contains: event === 'order.paid' ? ['payment', 'order'] : ['payment'],
      payload: { payment: { entity: payment }, ...(event === 'order.paid' ? { order: { entity: order } } : {}) },
      created_at: Math.floor(Date.now() / 1000),
    });
    return { eventId: razorpayId('evt'), body, signature: webhookSignature(body, this.keys.webhookSecret) };
  }

  private async sendWebhook(event: string, order: StandInOrder, payment: StandInPayment): Promise<void> {
    await this.deliverWithRetries(this.webhook(event, order, payment));
  }

  private async deliverWithRetries(delivery: WebhookDelivery): Promise<void> {
    // Razorpay retries a failed delivery; so do we, a few times.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      try {
        await this.deliver(delivery);
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
      }
    }
  }
}
