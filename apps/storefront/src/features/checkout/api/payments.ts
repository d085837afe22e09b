// The payment calls: initiate (with its Idempotency-Key), verify, and the test-mode stand-in's pay.
import type { Envelope, InitiatePaymentBody, InitiatePaymentData, VerifyPaymentBody, VerifyPaymentData } from '@persona/contracts';
import { api, ApiError, buildUrl } from '../../../lib/api-client';
import type { PaymentFailure, PaymentSuccessResponse } from '../lib/payment';

/**
 * POST /api/payments/initiate. The shared client sends no custom headers, so this one call
 * is made here with the same conventions (JSON, bearer token when stored, ApiError with the
 * server's message).
 */
export async function initiatePayment(body: InitiatePaymentBody, idempotencyKey: string): Promise<InitiatePaymentData> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': 'application/json',
    'Idempotency-Key': idempotencyKey,
  };
  const token = storedToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(buildUrl('/payments/initiate'), { method: 'POST', headers, body: JSON.stringify(body) });
  const parsed = await readJson(response);
  if (!response.ok) throw new ApiError(response.status, serverMessage(parsed) ?? (response.statusText || `Request failed (${response.status})`));
  return (parsed as Envelope<InitiatePaymentData>).data;
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

function storedToken(): string | null {
  try {
    const token = globalThis.localStorage?.getItem('token');
    return token && token.trim() ? token : null;
  } catch {
    return null;
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function serverMessage(body: unknown): string | null {
  const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message ? message : null;
}
