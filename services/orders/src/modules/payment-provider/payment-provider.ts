// Payments behind one interface (DESIGN §4), in our terms: paise, our order's
// receipt, and a webhook turned into a neutral action (Medusa's
// getWebhookActionAndData is the model), so the use cases never read a
// provider's JSON. Razorpay's implementation is in razorpay/; test mode runs
// the same implementation against the local stand-in in test-mode/.

export type PaymentMode = 'live' | 'test';

export interface ProviderOrder {
  id: string;
  amountPaise: number;
  status: string;
}

export interface ProviderPayment {
  id: string;
  providerOrderId: string;
  status: 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';
  amountPaise: number;
}

/** What a webhook means for an order, whatever the provider's JSON looked like. */
export type WebhookAction =
  /** Money was captured for the provider's order (`amountPaise` as the provider reports it, checked against ours). */
  | { action: 'captured'; type: string; providerOrderId: string; paymentId: string | null; amountPaise: number | undefined }
  /** A payment attempt failed or was only authorised: recorded, the order stays unpaid. */
  | { action: 'failed' | 'authorized'; type: string; providerOrderId: string; paymentId: string | null; reason?: string }
  /** A refund's state as Razorpay reports it (refund.created / processed / failed); `refundKey` is our refund's id, from its notes. */
  | {
      action: 'refund';
      type: string;
      providerRefundId: string;
      paymentId: string;
      refundKey: string | null;
      status: 'pending' | 'processed' | 'failed';
      amountPaise: number;
    }
  /** Nothing this shop acts on (another event, or no order named). */
  | { action: 'not_supported'; type: string };

/** A refund as the provider reports it. */
export interface ProviderRefund {
  id: string;
  paymentId: string;
  amountPaise: number;
  status: 'pending' | 'processed' | 'failed';
}

/**
 * One line of the provider's settlement recon (Razorpay's GET /v1/settlements/recon/combined): a
 * payment, refund or adjustment settled to the shop's bank account, amounts in paise.
 */
export interface SettlementItem {
  /** pay_…, rfnd_…, or the adjustment's id. */
  entityId: string;
  type: 'payment' | 'refund' | 'adjustment';
  /** A refund's payment (a payment's own id for a payment). */
  paymentId: string | null;
  /** The provider's order of the payment. */
  providerOrderId: string | null;
  amountPaise: number;
  /** What reached the account (a payment: its amount less the fee) and what left it (a refund). */
  creditPaise: number;
  debitPaise: number;
  /** The provider's fee including the GST on it, and that GST. */
  feePaise: number;
  taxPaise: number;
  createdAt: Date;
  settlementId: string | null;
  settledAt: Date | null;
}

export interface PaymentProvider {
  readonly mode: PaymentMode;
  /** The public key the browser's checkout is opened with. */
  readonly keyId: string;
  createOrder(input: { amountPaise: number; receipt: string; notes: Record<string, string> }): Promise<ProviderOrder>;
  paymentsOf(providerOrderId: string): Promise<ProviderPayment[]>;
  /**
   * Captures an authorised payment of `amountPaise` (its whole amount); a payment captured already
   * is answered as it is. Money only authorised goes back to the buyer after a few days.
   */
  capture(paymentId: string, amountPaise: number): Promise<ProviderPayment>;
  /**
   * Refunds `amountPaise` of a captured payment. `key` (our refund's id) is sent as
   * X-Refund-Idempotency: the same key again answers the same refund, never a second one.
   */
  refund(paymentId: string, amountPaise: number, options: { key: string; speed: 'normal' | 'optimum' }): Promise<ProviderRefund>;
  fetchRefund(refundId: string): Promise<ProviderRefund>;
  /** Every transaction settled in a month (India's calendar), or on one day of it: all pages of the recon. */
  settlementRecon(period: { year: number; month: number; day?: number }): Promise<SettlementItem[]>;
  isValidPaymentSignature(providerOrderId: string, paymentId: string, signature: string): boolean;
  isValidWebhookSignature(rawBody: Buffer, signature: string): boolean;
  /** The webhook's meaning; call only once its signature is valid. */
  webhookAction(payload: unknown): WebhookAction;
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
