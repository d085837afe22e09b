// Where the test-mode stand-in keeps its orders, payments and refunds (issue 25). In one process
// they live in its memory, as they always did. With REDIS_URL they live in Redis, so every orders
// replica's stand-in is the same Razorpay account: an order made through one replica is paid,
// captured, listed and refunded through any other. What two replicas may race on is one Redis
// script each (a payment's attempt, a capture, a refund with its idempotency key and the amount
// still refundable); a refund's final status is written only by the stand-in that made it (its
// timer), so that write needs no script. The scripts read records they find by id (a capture its
// order, a refund the payment's other refunds): one Redis, not Redis Cluster.
import Redis from 'ioredis';

export interface StandInOrder {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  status: 'created' | 'attempted' | 'paid';
  attempts: number;
  notes: Record<string, string>;
  created_at: number;
}

export interface StandInPayment {
  id: string;
  entity: 'payment';
  amount: number;
  currency: string;
  status: 'authorized' | 'captured' | 'failed';
  order_id: string;
  method: 'card';
  captured: boolean;
  error_code: string | null;
  error_description: string | null;
  created_at: number;
}

export interface StandInRefund {
  id: string;
  entity: 'refund';
  amount: number;
  currency: string;
  payment_id: string;
  notes: Record<string, string> | never[];
  status: 'pending' | 'processed' | 'failed';
  speed_requested: 'normal' | 'optimum';
  created_at: number;
}

export type CaptureResult =
  { outcome: 'captured'; payment: StandInPayment; order: StandInOrder } | { outcome: 'missing' | 'already-captured' | 'not-authorized' };

export type AddRefundResult = { outcome: 'made'; refund: StandInRefund } | { outcome: 'known'; refund: StandInRefund } | { outcome: 'exceeds' };

export interface StandInStore {
  order(id: string): Promise<StandInOrder | undefined>;
  payment(id: string): Promise<StandInPayment | undefined>;
  refund(id: string): Promise<StandInRefund | undefined>;
  /** The payments of an order, oldest first. */
  paymentsOf(orderId: string): Promise<StandInPayment[]>;
  /** Every payment and every refund (the settlement recon), oldest first. */
  allPayments(): Promise<StandInPayment[]>;
  allRefunds(): Promise<StandInRefund[]>;
  /** The refund an X-Refund-Idempotency key made, if one did. */
  refundByKey(key: string): Promise<StandInRefund | undefined>;
  addOrder(order: StandInOrder): Promise<void>;
  /** A payment attempt on its order: kept, and counted on the order (now attempted); the order as it now is, or undefined when it does not exist. */
  addPayment(payment: StandInPayment): Promise<StandInOrder | undefined>;
  /** Authorised → captured, once, however many stand-ins ask at the same time; its order paid. */
  capture(paymentId: string): Promise<CaptureResult>;
  /**
   * Keeps `refund` unless `key` already made one (that one is answered) or the payment's refunds
   * not failed would then exceed `limit` paise; all of it at once across stand-ins.
   */
  addRefund(refund: StandInRefund, key: string | undefined, limit: number): Promise<AddRefundResult>;
  /** A refund's final status (written by the stand-in that made it); the refund as it now is. */
  settleRefund(id: string, status: StandInRefund['status']): Promise<StandInRefund | undefined>;
  close(): Promise<void>;
}

/** One process's stand-in state, in its memory (the Maps are open to tests that set up a recon). */
export class MemoryStandInStore implements StandInStore {
  readonly orders = new Map<string, StandInOrder>();
  readonly payments = new Map<string, StandInPayment>();
  readonly refunds = new Map<string, StandInRefund>();
  /** X-Refund-Idempotency → the refund it made. */
  private readonly refundKeys = new Map<string, string>();

  async order(id: string) {
    return this.orders.get(id);
  }
  async payment(id: string) {
    return this.payments.get(id);
  }
  async refund(id: string) {
    return this.refunds.get(id);
  }
  async paymentsOf(orderId: string) {
    return [...this.payments.values()].filter((p) => p.order_id === orderId);
  }
  async allPayments() {
    return [...this.payments.values()];
  }
  async allRefunds() {
    return [...this.refunds.values()];
  }
  async refundByKey(key: string) {
    const id = this.refundKeys.get(key);
    return id === undefined ? undefined : this.refunds.get(id);
  }
  async addOrder(order: StandInOrder) {
    this.orders.set(order.id, order);
  }
  async addPayment(payment: StandInPayment) {
    const order = this.orders.get(payment.order_id);
    if (!order) return undefined;
    this.payments.set(payment.id, payment);
    order.attempts += 1;
    order.status = 'attempted';
    return order;
  }
  async capture(paymentId: string): Promise<CaptureResult> {
    const payment = this.payments.get(paymentId);
    if (!payment) return { outcome: 'missing' };
    if (payment.status === 'captured') return { outcome: 'already-captured' };
    if (payment.status !== 'authorized') return { outcome: 'not-authorized' };
    const order = this.orders.get(payment.order_id)!;
    payment.status = 'captured';
    payment.captured = true;
    order.status = 'paid';
    order.amount_paid = order.amount;
    order.amount_due = 0;
    return { outcome: 'captured', payment, order };
  }
  async addRefund(refund: StandInRefund, key: string | undefined, limit: number): Promise<AddRefundResult> {
    // No await before the refund is kept: one request at a time in this process.
    const knownId = key === undefined ? undefined : this.refundKeys.get(key);
    const known = knownId === undefined ? undefined : this.refunds.get(knownId);
    if (known) return { outcome: 'known', refund: known };
    const refunded = [...this.refunds.values()]
      .filter((r) => r.payment_id === refund.payment_id && r.status !== 'failed')
      .reduce((sum, r) => sum + r.amount, 0);
    if (refunded + refund.amount > limit) return { outcome: 'exceeds' };
    this.refunds.set(refund.id, refund);
    if (key !== undefined) this.refundKeys.set(key, refund.id);
    return { outcome: 'made', refund };
  }
  async settleRefund(id: string, status: StandInRefund['status']) {
    const refund = this.refunds.get(id);
    if (refund) refund.status = status;
    return refund;
  }
  async close() {}
}

/** How long the stand-in's records stay in Redis: a week, longer than any test-mode checkout, refund or recon needs. */
export const STAND_IN_TTL_SECONDS = 7 * 24 * 3600;

// A payment attempt: the payment kept and listed under its order and in the account, the order's attempts counted.
// KEYS: order, payment, the order's payments, every payment. ARGV: payment JSON, payment id, TTL.
const ADD_PAYMENT = `
local text = redis.call('GET', KEYS[1])
if not text then return false end
local order = cjson.decode(text)
order.attempts = order.attempts + 1
order.status = 'attempted'
local encoded = cjson.encode(order)
redis.call('SET', KEYS[1], encoded, 'EX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[3])
redis.call('RPUSH', KEYS[3], ARGV[2])
redis.call('EXPIRE', KEYS[3], ARGV[3])
redis.call('RPUSH', KEYS[4], ARGV[2])
redis.call('EXPIRE', KEYS[4], ARGV[3])
return encoded`;

// A capture: authorised → captured, and the order paid, or why not. KEYS: payment. ARGV: the orders' key prefix, TTL.
const CAPTURE = `
local text = redis.call('GET', KEYS[1])
if not text then return {'missing'} end
local payment = cjson.decode(text)
if payment.status == 'captured' then return {'already-captured'} end
if payment.status ~= 'authorized' then return {'not-authorized'} end
payment.status = 'captured'
payment.captured = true
local orderKey = ARGV[1] .. payment.order_id
local order = cjson.decode(redis.call('GET', orderKey))
order.status = 'paid'
order.amount_paid = order.amount
order.amount_due = 0
local encodedPayment = cjson.encode(payment)
local encodedOrder = cjson.encode(order)
redis.call('SET', KEYS[1], encodedPayment, 'EX', ARGV[2])
redis.call('SET', orderKey, encodedOrder, 'EX', ARGV[2])
return {'captured', encodedPayment, encodedOrder}`;

// A refund: the one its idempotency key made, or refused past the amount left, or kept.
// KEYS: the key's record (or '' without one), the refund, the payment's refunds, every refund.
// ARGV: refund JSON, refund id, amount, limit, the refunds' key prefix, TTL, whether there is a key ('1').
const ADD_REFUND = `
if ARGV[7] == '1' then
  local known = redis.call('GET', KEYS[1])
  if known then
    local refund = redis.call('GET', ARGV[5] .. known)
    if refund then return {'known', refund} end
  end
end
local refunded = 0
for _, id in ipairs(redis.call('LRANGE', KEYS[3], 0, -1)) do
  local text = redis.call('GET', ARGV[5] .. id)
  if text then
    local refund = cjson.decode(text)
    if refund.status ~= 'failed' then refunded = refunded + refund.amount end
  end
end
if refunded + tonumber(ARGV[3]) > tonumber(ARGV[4]) then return {'exceeds'} end
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[6])
redis.call('RPUSH', KEYS[3], ARGV[2])
redis.call('EXPIRE', KEYS[3], ARGV[6])
redis.call('RPUSH', KEYS[4], ARGV[2])
redis.call('EXPIRE', KEYS[4], ARGV[6])
if ARGV[7] == '1' then redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[6]) end
return {'made', ARGV[1]}`;

/**
 * The stand-in's state in the Redis of `redisUrl`, under `prefix` (one Razorpay account: the
 * default names it after the key id). Unlike the shop's caches this is not best effort: while Redis
 * is away the stand-in answers errors, as Razorpay would while it is down.
 */
export class RedisStandInStore implements StandInStore {
  private readonly redis: Redis;

  constructor(
    redisUrl: string,
    private readonly prefix: string,
    private readonly ttlSeconds = STAND_IN_TTL_SECONDS,
  ) {
    this.redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 1, retryStrategy: (n) => Math.min(n * 200, 2000) });
    // A failing command answers its caller; the event needs a listener.
    this.redis.on('error', () => undefined);
  }

  private key(kind: 'order' | 'payment' | 'refund' | 'order-payments' | 'payment-refunds' | 'refund-key', id: string): string {
    return `${this.prefix}${kind}:${id}`;
  }

  private async read<T>(key: string): Promise<T | undefined> {
    const text = await this.redis.get(key);
    return text === null ? undefined : (JSON.parse(text) as T);
  }

  /** The records of these ids, in their order (those expired left out). */
  private async many<T>(kind: 'payment' | 'refund', ids: string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    const texts = await this.redis.mget(ids.map((id) => this.key(kind, id)));
    return texts.filter((t): t is string => t !== null).map((t) => JSON.parse(t) as T);
  }

  order(id: string) {
    return this.read<StandInOrder>(this.key('order', id));
  }
  payment(id: string) {
    return this.read<StandInPayment>(this.key('payment', id));
  }
  refund(id: string) {
    return this.read<StandInRefund>(this.key('refund', id));
  }
  async paymentsOf(orderId: string) {
    return this.many<StandInPayment>('payment', await this.redis.lrange(this.key('order-payments', orderId), 0, -1));
  }
  async allPayments() {
    return this.many<StandInPayment>('payment', await this.redis.lrange(`${this.prefix}payments`, 0, -1));
  }
  async allRefunds() {
    return this.many<StandInRefund>('refund', await this.redis.lrange(`${this.prefix}refunds`, 0, -1));
  }
  async refundByKey(key: string) {
    const id = await this.redis.get(this.key('refund-key', key));
    return id === null ? undefined : this.refund(id);
  }
  async addOrder(order: StandInOrder) {
    await this.redis.set(this.key('order', order.id), JSON.stringify(order), 'EX', this.ttlSeconds);
  }
  async addPayment(payment: StandInPayment) {
    const order = (await this.redis.eval(
      ADD_PAYMENT,
      4,
      this.key('order', payment.order_id),
      this.key('payment', payment.id),
      this.key('order-payments', payment.order_id),
      `${this.prefix}payments`,
      JSON.stringify(payment),
      payment.id,
      this.ttlSeconds,
    )) as string | null;
    return order === null ? undefined : (JSON.parse(order) as StandInOrder);
  }
  async capture(paymentId: string): Promise<CaptureResult> {
    const [outcome, payment, order] = (await this.redis.eval(CAPTURE, 1, this.key('payment', paymentId), this.key('order', ''), this.ttlSeconds)) as string[];
    if (outcome === 'captured') return { outcome, payment: JSON.parse(payment!) as StandInPayment, order: JSON.parse(order!) as StandInOrder };
    return { outcome: outcome as 'missing' | 'already-captured' | 'not-authorized' };
  }
  async addRefund(refund: StandInRefund, key: string | undefined, limit: number): Promise<AddRefundResult> {
    const [outcome, text] = (await this.redis.eval(
      ADD_REFUND,
      4,
      key === undefined ? '' : this.key('refund-key', key),
      this.key('refund', refund.id),
      this.key('payment-refunds', refund.payment_id),
      `${this.prefix}refunds`,
      JSON.stringify(refund),
      refund.id,
      refund.amount,
      limit,
      this.key('refund', ''),
      this.ttlSeconds,
      key === undefined ? '0' : '1',
    )) as string[];
    if (outcome === 'exceeds') return { outcome };
    return { outcome: outcome as 'made' | 'known', refund: JSON.parse(text!) as StandInRefund };
  }
  async settleRefund(id: string, status: StandInRefund['status']) {
    const refund = await this.refund(id);
    if (!refund) return undefined;
    refund.status = status;
    await this.redis.set(this.key('refund', id), JSON.stringify(refund), 'EX', this.ttlSeconds);
    return refund;
  }
  async close() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
