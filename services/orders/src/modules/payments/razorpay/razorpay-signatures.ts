// Razorpay's two signatures (DESIGN §4), computed and compared in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** hex(HMAC_SHA256(key_secret, order_id + "|" + payment_id)): what checkout.js hands the browser. */
export function paymentSignature(razorpayOrderId: string, razorpayPaymentId: string, keySecret: string): string {
  return createHmac('sha256', keySecret).update(`${razorpayOrderId}|${razorpayPaymentId}`).digest('hex');
}

/** hex(HMAC_SHA256(webhook_secret, raw body)): the X-Razorpay-Signature of a webhook. */
export function webhookSignature(rawBody: string | Buffer, webhookSecret: string): string {
  return createHmac('sha256', webhookSecret).update(rawBody).digest('hex');
}

/** Compares two hex strings without leaking where they differ. */
export function safeEqualHex(expected: string, given: string): boolean {
  if (!/^[0-9a-f]+$/i.test(given) || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given, 'hex'));
}
