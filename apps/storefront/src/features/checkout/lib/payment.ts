// The payment pop-up behind one interface (live Razorpay checkout.js or the test-mode dialog),
// the spec §7 pop-up options, the spec §3 verification request and the spec §8 toast texts.
import type { DeliveryType, InitiatePaymentData, VerifyPaymentBody } from '@persona/contracts';
import { paiseToRupees } from '@persona/contracts';
import { ApiError } from '@persona/web-kit/api-client';

/** What checkout.js hands its `handler` on success (and what the test-mode endpoint answers). */
export interface PaymentSuccessResponse {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

/** The `error` of checkout.js's `payment.failed` event. */
export interface PaymentFailure {
  code?: string;
  description?: string;
  reason?: string;
  source?: string;
  step?: string;
  metadata?: { order_id?: string; payment_id?: string };
}

export type PaymentOutcome = { kind: 'paid'; response: PaymentSuccessResponse } | { kind: 'failed'; error: PaymentFailure } | { kind: 'dismissed' };

/** Everything either pop-up needs to take one payment. */
export interface PaymentRequest {
  keyId: string;
  /** Paise. */
  amount: number;
  currency: string;
  razorpayOrderId: string;
  bookId: string;
  bookTitle: string;
  deliveryType: DeliveryType;
  prefill: { name: string; email: string; contact: string };
}

/** Opens a payment pop-up and settles once: paid, failed, or dismissed by the buyer. */
export interface PaymentOpener {
  open(request: PaymentRequest): Promise<PaymentOutcome>;
}

export function paymentRequest(
  init: InitiatePaymentData,
  book: { _id: string; title: string },
  buyer: { fullName: string; email: string; phone: string; deliveryType: DeliveryType },
): PaymentRequest {
  return {
    keyId: init.keyId,
    amount: init.amount,
    currency: init.currency,
    razorpayOrderId: init.razorpayOrderId,
    bookId: book._id,
    bookTitle: book.title,
    deliveryType: buyer.deliveryType,
    prefill: { name: buyer.fullName.trim(), email: buyer.email.trim(), contact: buyer.phone.trim() },
  };
}

export const SHOP_NAME = 'Persona Books';
export const THEME_COLOR = '#6366f1';

export interface RazorpayOptions {
  key: string;
  amount: number;
  currency: string;
  name: string;
  description: string;
  order_id: string;
  prefill: { name: string; email: string; contact: string };
  notes: { bookId: string; deliveryType: DeliveryType };
  theme: { color: string };
  handler: (response: PaymentSuccessResponse) => void;
  modal: { ondismiss: () => void };
}

/** The spec §7 pop-up options. */
export function razorpayOptions(
  request: PaymentRequest,
  callbacks: { onPaid: (response: PaymentSuccessResponse) => void; onDismiss: () => void },
): RazorpayOptions {
  return {
    key: request.keyId,
    amount: request.amount,
    currency: request.currency,
    name: SHOP_NAME,
    description: `Order for ${request.bookTitle}`,
    order_id: request.razorpayOrderId,
    prefill: { ...request.prefill },
    notes: { bookId: request.bookId, deliveryType: request.deliveryType },
    theme: { color: THEME_COLOR },
    handler: callbacks.onPaid,
    modal: { ondismiss: callbacks.onDismiss },
  };
}

/** The spec §3 verification request built from the pop-up's success response. */
export function buildVerifyBody(
  init: Pick<InitiatePaymentData, 'orderId' | 'razorpayOrderId' | 'amount' | 'currency'>,
  response: PaymentSuccessResponse,
  buyer: { fullName: string; email: string; phone: string },
): VerifyPaymentBody {
  return {
    orderId: init.orderId,
    razorpayOrderId: response.razorpay_order_id || init.razorpayOrderId,
    razorpayPaymentId: response.razorpay_payment_id,
    razorpaySignature: response.razorpay_signature,
    amount: paiseToRupees(init.amount),
    status: 'successful',
    method: 'Razorpay',
    currency: init.currency,
    email: buyer.email.trim(),
    phone: buyer.phone.trim(),
    payerName: buyer.fullName.trim(),
    paymentResponse: response,
  };
}

export const SOMETHING_WENT_WRONG = 'Something went wrong!';
export const VERIFICATION_FAILED = 'Payment verification failed';

/** Spec §8: "Payment Error" with the server's message, else "Something went wrong!". */
export function initiationErrorText(error: unknown): string {
  if (error instanceof ApiError) return error.message || SOMETHING_WENT_WRONG;
  return SOMETHING_WENT_WRONG;
}

/** Spec §8: "Verification Failed" with the error's message, else "Payment verification failed", else "Something went wrong!". */
export function verificationErrorText(error: unknown): string {
  if (error instanceof ApiError) return error.message || VERIFICATION_FAILED;
  if (error instanceof Error && error.message) return error.message;
  return SOMETHING_WENT_WRONG;
}
