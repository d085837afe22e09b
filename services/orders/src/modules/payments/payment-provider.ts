// Payments behind one interface (DESIGN §4). Both modes use the real razorpay
// SDK: live mode talks to Razorpay, test mode to our local stand-in that
// speaks the same wire format, so the verify and webhook code is the same.
import Razorpay from 'razorpay';
import { paymentSignature, safeEqualHex, webhookSignature } from './razorpay-signatures';

export type PaymentMode = 'live' | 'test';

export interface ProviderOrder {
  id: string;
  amount: number;
  status: string;
}

export interface ProviderPayment {
  id: string;
  orderId: string;
  status: 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';
  amount: number;
}

export interface PaymentProvider {
  readonly mode: PaymentMode;
  readonly keyId: string;
  createOrder(input: { amountPaise: number; receipt: string; notes: Record<string, string> }): Promise<ProviderOrder>;
  paymentsOf(razorpayOrderId: string): Promise<ProviderPayment[]>;
  isValidPaymentSignature(razorpayOrderId: string, razorpayPaymentId: string, signature: string): boolean;
  isValidWebhookSignature(rawBody: Buffer, signature: string): boolean;
}

export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}

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

export class RazorpayProvider implements PaymentProvider {
  readonly #sdk: Razorpay;
  readonly #keys: RazorpayKeys;

  constructor(
    readonly mode: PaymentMode,
    keys: RazorpayKeys,
    /** Test mode: the stand-in's /v1 base URL. The SDK has no option for it; its axios instance is re-pointed. */
    apiBaseUrl?: string,
  ) {
    this.#keys = keys;
    this.#sdk = new Razorpay({ key_id: keys.keyId, key_secret: keys.keySecret });
    const api = (this.#sdk as unknown as { api: { rq: { defaults: { baseURL: string; timeout?: number } } } }).api;
    if (apiBaseUrl) api.rq.defaults.baseURL = apiBaseUrl;
    api.rq.defaults.timeout = 10_000;
  }

  get keyId(): string {
    return this.#keys.keyId;
  }

  async createOrder(input: { amountPaise: number; receipt: string; notes: Record<string, string> }): Promise<ProviderOrder> {
    try {
      const order = await this.#sdk.orders.create({ amount: input.amountPaise, currency: 'INR', receipt: input.receipt, notes: input.notes });
      return { id: order.id, amount: Number(order.amount), status: order.status };
    } catch (err) {
      throw describeSdkError(err);
    }
  }

  async paymentsOf(razorpayOrderId: string): Promise<ProviderPayment[]> {
    try {
      const result = await this.#sdk.orders.fetchPayments(razorpayOrderId);
      return result.items.map((p) => ({ id: p.id, orderId: String(p.order_id), status: p.status as ProviderPayment['status'], amount: Number(p.amount) }));
    } catch (err) {
      throw describeSdkError(err);
    }
  }

  isValidPaymentSignature(razorpayOrderId: string, razorpayPaymentId: string, signature: string): boolean {
    return safeEqualHex(paymentSignature(razorpayOrderId, razorpayPaymentId, this.#keys.keySecret), signature);
  }

  isValidWebhookSignature(rawBody: Buffer, signature: string): boolean {
    return safeEqualHex(webhookSignature(rawBody, this.#keys.webhookSecret), signature);
  }
}
