// The payment calls: initiate (with its Idempotency-Key), verify, and the test-mode stand-in's pay.
import type { Envelope, InitiatePaymentBody, InitiatePaymentData, VerifyPaymentBody, VerifyPaymentData } from '@persona/contracts';
import { api, apiRequest } from '@persona/web-kit/api-client';
import type { PaymentFailure, PaymentSuccessResponse } from '../lib/payment';

/** POST /api/payments/initiate, with the checkout attempt's Idempotency-Key. */
export async function initiatePayment(body: InitiatePaymentBody, idempotencyKey: string): Promise<InitiatePaymentData> {
  const answer = await apiRequest<Envelope<InitiatePaymentData>>('/payments/initiate', {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  return answer.data;
}

export async function verifyPayment(body: VerifyPaymentBody): Promise<{ data: VerifyPaymentData; message?: string }> {
  return api.post<{ data: VerifyPaymentData; message?: string }>('/payments/verify', body);
}

/** Test mode only: the local Razorpay stand-in takes the payment as checkout.js would. */
export async function payInTestMode(razorpayOrderId: string): Promise<PaymentSuccessResponse> {
  const answer = await api.post<Envelope<PaymentSuccessResponse>>('/payments/test-mode/pay', { razorpayOrderId, outcome: 'success' });
  return answer.data;
}

/** Test mode only: the stand-in declines the payment, answering checkout.js's `payment.failed` error. */
export async function declineInTestMode(razorpayOrderId: string): Promise<PaymentFailure> {
  const answer = await api.post<Envelope<{ error: PaymentFailure }>>('/payments/test-mode/pay', { razorpayOrderId, outcome: 'failure' });
  return answer.data.error;
}
