// Razorpay behind PaymentProvider, on the real razorpay SDK. Live mode talks to
// Razorpay; test mode to the local stand-in (test-mode/), which speaks the same
// wire format, so the verify and webhook code is the same in both.
import Razorpay from 'razorpay';
import {
  PaymentProviderError,
  type PaymentMode,
  type PaymentProvider,
  type ProviderOrder,
  type ProviderPayment,
  type ProviderRefund,
  type SettlementItem,
  type WebhookAction,
} from '../../payment-provider/payment-provider';
import { paymentSignature, safeEqualHex, webhookSignature } from './razorpay-signatures';

export interface RazorpayKeys {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
}

/** Documented test-mode keys: an outside client can sign payments and webhooks with them exactly as Razorpay would. */
export const TEST_MODE_KEYS: RazorpayKeys = {
  keyId: 'rzp_test_persona_books',
  keySecret: 'persona_test_key_secret',
  webhookSecret: 'persona_test_webhook_secret',
};

function describeSdkError(err: unknown): PaymentProviderError {
  const e = err as { statusCode?: number; error?: { description?: string }; message?: string };
  return new PaymentProviderError(e.error?.description ?? e.message ?? 'the payment provider failed', e.statusCode);
}

/** The parts of Razorpay's webhook body we read (https://razorpay.com/docs/webhooks/payloads/payments/). */
interface RazorpayWebhook {
  event?: string;
  payload?: {
    refund?: { entity?: { id?: string; payment_id?: string; amount?: number; status?: string; notes?: Record<string, string> | unknown[] } };
    payment?: { entity?: { id?: string; order_id?: string; amount?: number; status?: string; error_description?: string } };
    order?: { entity?: { id?: string; amount?: number; amount_paid?: number } };
  };
}

/** Razorpay's webhook JSON as what it means for an order. */
export function razorpayWebhookAction(body: unknown): WebhookAction {
  const event = (typeof body === 'object' && body !== null ? body : {}) as RazorpayWebhook;
  const type = typeof event.event === 'string' ? event.event : 'unknown';
  const refund = event.payload?.refund?.entity;
  if (type.startsWith('refund.')) {
    const status = refund?.status;
    if (!refund?.id || !refund.payment_id || typeof refund.amount !== 'number' || (status !== 'pending' && status !== 'processed' && status !== 'failed')) {
      return { action: 'not_supported', type };
    }
    // Razorpay sends empty notes as [] (a PHP habit).
    const notes = refund.notes && !Array.isArray(refund.notes) ? (refund.notes as Record<string, string>) : {};
    return {
      action: 'refund',
      type,
      providerRefundId: refund.id,
      paymentId: refund.payment_id,
      refundKey: notes.refund_id ?? null,
      status,
      amountPaise: refund.amount,
    };
  }
  const payment = event.payload?.payment?.entity;
  const providerOrderId = payment?.order_id ?? event.payload?.order?.entity?.id;
  if (!providerOrderId) return { action: 'not_supported', type };
  const paymentId = payment?.id ?? null;
  switch (type) {
    case 'payment.captured':
    case 'order.paid':
      return { action: 'captured', type, providerOrderId, paymentId, amountPaise: payment?.amount ?? event.payload?.order?.entity?.amount_paid };
    case 'payment.failed':
      return { action: 'failed', type, providerOrderId, paymentId, reason: payment?.error_description };
    case 'payment.authorized':
      return { action: 'authorized', type, providerOrderId, paymentId };
    default:
      return { action: 'not_supported', type };
  }
}

/** The SDK's HTTP client (axios): its auth and base URL, for what the SDK does not expose. */
interface RazorpayHttp {
  post(url: string, data: unknown, config: { headers: Record<string, string> }): Promise<{ data: unknown }>;
}

/** An error of the SDK's HTTP client, as the SDK's own errors are read. */
function describeHttpError(err: unknown): PaymentProviderError {
  const e = err as { response?: { status?: number; data?: { error?: { description?: string } } }; message?: string };
  return new PaymentProviderError(e.response?.data?.error?.description ?? e.message ?? 'the payment provider failed', e.response?.status);
}

/** A refund as Razorpay's API answers it. */
function asRefund(r: unknown): ProviderRefund {
  const refund = r as { id: string; payment_id: string; amount: number | string; status: string };
  const status = refund.status === 'processed' || refund.status === 'failed' ? refund.status : 'pending';
  return { id: refund.id, paymentId: refund.payment_id, amountPaise: Number(refund.amount), status };
}

/** A payment as Razorpay's API answers it. */
function asPayment(p: { id: string; order_id?: string | null; status: string; amount: number | string }): ProviderPayment {
  return { id: p.id, providerOrderId: String(p.order_id), status: p.status as ProviderPayment['status'], amountPaise: Number(p.amount) };
}

/** The recon's page size: Razorpay's largest. */
export const RECON_PAGE_SIZE = 1000;

/** A line of Razorpay's settlement recon, as its API answers it (the SDK's RazorpaySettlementRecon). */
interface RazorpayReconItem {
  entity_id: string;
  type: string;
  debit: number | string;
  credit: number | string;
  amount: number | string;
  fee: number | string | null;
  tax: number | string | null;
  created_at: number;
  settlement_id?: string | null;
  settled_at?: number | null;
  payment_id?: string | null;
  order_id?: string | null;
}

export function asSettlementItem(item: RazorpayReconItem): SettlementItem {
  const type = item.type === 'payment' || item.type === 'refund' ? item.type : 'adjustment';
  return {
    entityId: item.entity_id,
    type,
    paymentId: type === 'payment' ? item.entity_id : (item.payment_id ?? null),
    providerOrderId: item.order_id ?? null,
    amountPaise: Number(item.amount),
    creditPaise: Number(item.credit),
    debitPaise: Number(item.debit),
    feePaise: Number(item.fee ?? 0),
    taxPaise: Number(item.tax ?? 0),
    createdAt: new Date(item.created_at * 1000),
    settlementId: item.settlement_id ?? null,
    settledAt: item.settled_at ? new Date(item.settled_at * 1000) : null,
  };
}

export class RazorpayProvider implements PaymentProvider {
  readonly #sdk: Razorpay;
  readonly #keys: RazorpayKeys;
  readonly #http: RazorpayHttp;

  constructor(
    readonly mode: PaymentMode,
    keys: RazorpayKeys,
    /** Test mode: the stand-in's /v1 base URL. The SDK has no option for it; its axios instance is re-pointed. */
    apiBaseUrl?: string,
  ) {
    this.#keys = keys;
    this.#sdk = new Razorpay({ key_id: keys.keyId, key_secret: keys.keySecret });
    const api = (this.#sdk as unknown as { api: { rq: RazorpayHttp & { defaults: { baseURL: string; timeout?: number } } } }).api;
    if (apiBaseUrl) api.rq.defaults.baseURL = apiBaseUrl;
    api.rq.defaults.timeout = 10_000;
    this.#http = api.rq;
  }

  get keyId(): string {
    return this.#keys.keyId;
  }

  async createOrder(input: { amountPaise: number; receipt: string; notes: Record<string, string> }): Promise<ProviderOrder> {
    try {
      // Razorpay's `amount` is in paise.
      const order = await this.#sdk.orders.create({ amount: input.amountPaise, currency: 'INR', receipt: input.receipt, notes: input.notes });
      return { id: order.id, amountPaise: Number(order.amount), status: order.status };
    } catch (err) {
      throw describeSdkError(err);
    }
  }

  async paymentsOf(providerOrderId: string): Promise<ProviderPayment[]> {
    try {
      const result = await this.#sdk.orders.fetchPayments(providerOrderId);
      return result.items.map(asPayment);
    } catch (err) {
      throw describeSdkError(err);
    }
  }

  async capture(paymentId: string, amountPaise: number): Promise<ProviderPayment> {
    try {
      return asPayment(await this.#sdk.payments.capture(paymentId, amountPaise, 'INR'));
    } catch (err) {
      // Captured meanwhile (by Razorpay's automatic capture, or a capture whose answer was lost):
      // Razorpay refuses a second capture; the payment as it stands says so.
      const payment = await this.#sdk.payments.fetch(paymentId).catch(() => null);
      if (payment?.status === 'captured') return asPayment(payment);
      throw describeSdkError(err);
    }
  }

  async refund(paymentId: string, amountPaise: number, options: { key: string; speed: 'normal' | 'optimum' }): Promise<ProviderRefund> {
    // The SDK's refund has no way to send X-Refund-Idempotency: its own HTTP client (auth, base URL) is used.
    try {
      const answer = await this.#http.post(
        `/v1/payments/${encodeURIComponent(paymentId)}/refund`,
        { amount: amountPaise, speed: options.speed, notes: { refund_id: options.key } },
        { headers: { 'X-Refund-Idempotency': options.key } },
      );
      return asRefund(answer.data);
    } catch (err) {
      throw describeHttpError(err);
    }
  }

  async fetchRefund(refundId: string): Promise<ProviderRefund> {
    try {
      return asRefund(await this.#sdk.refunds.fetch(refundId));
    } catch (err) {
      throw describeSdkError(err);
    }
  }

  async settlementRecon(period: { year: number; month: number; day?: number }): Promise<SettlementItem[]> {
    const items: SettlementItem[] = [];
    // A page shorter than asked for is the last.
    for (let skip = 0; ; skip += RECON_PAGE_SIZE) {
      let page: { items?: RazorpayReconItem[] };
      try {
        // The SDK types the answer as one item; the API answers a collection.
        page = (await this.#sdk.settlements.reports({ ...period, count: RECON_PAGE_SIZE, skip })) as unknown as { items?: RazorpayReconItem[] };
      } catch (err) {
        throw describeSdkError(err);
      }
      const found = page.items ?? [];
      items.push(...found.map(asSettlementItem));
      if (found.length < RECON_PAGE_SIZE) return items;
    }
  }

  isValidPaymentSignature(providerOrderId: string, paymentId: string, signature: string): boolean {
    return safeEqualHex(paymentSignature(providerOrderId, paymentId, this.#keys.keySecret), signature);
  }

  isValidWebhookSignature(rawBody: Buffer, signature: string): boolean {
    return safeEqualHex(webhookSignature(rawBody, this.#keys.webhookSecret), signature);
  }

  webhookAction(payload: unknown): WebhookAction {
    return razorpayWebhookAction(payload);
  }
}
