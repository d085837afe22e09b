import { ApiError } from '@persona/web-kit/api-client';
import { buildVerifyBody, initiationErrorText, paymentRequest, razorpayOptions, verificationErrorText } from './payment';

const init = {
  amount: 39950,
  currency: 'INR' as const,
  razorpayOrderId: 'order_ABC123',
  orderId: '11111111-2222-4333-8444-555555555555',
  keyId: 'rzp_test_key',
  testMode: false,
  breakdown: { basePaise: 34950, printingPaise: 0, deliveryPaise: 5000, totalPaise: 39950 },
};
const buyer = { fullName: ' Asha Rao ', email: 'asha@example.com ', phone: ' 9876543210', deliveryType: 'physical' as const };
const response = { razorpay_payment_id: 'pay_XYZ', razorpay_order_id: 'order_ABC123', razorpay_signature: 'f'.repeat(64) };

describe('verification request', () => {
  it('carries the spec §3 fields, amount = paise / 100 and the whole provider response', () => {
    expect(buildVerifyBody(init, response, buyer)).toEqual({
      orderId: init.orderId,
      razorpayOrderId: 'order_ABC123',
      razorpayPaymentId: 'pay_XYZ',
      razorpaySignature: 'f'.repeat(64),
      amount: 399.5,
      status: 'successful',
      method: 'Razorpay',
      currency: 'INR',
      email: 'asha@example.com',
      phone: '9876543210',
      payerName: 'Asha Rao',
      paymentResponse: response,
    });
  });

  it('falls back to the initiated Razorpay order id when the response lacks one', () => {
    expect(buildVerifyBody(init, { ...response, razorpay_order_id: '' }, buyer).razorpayOrderId).toBe('order_ABC123');
  });
});

describe('Razorpay pop-up options (spec §7)', () => {
  it('are built from the initiation answer, the book and the buyer', () => {
    const onPaid = jest.fn();
    const onDismiss = jest.fn();
    const options = razorpayOptions(paymentRequest(init, { _id: 'book-1', title: 'The Hobbit' }, buyer), { onPaid, onDismiss });
    expect({ ...options, handler: undefined, modal: undefined }).toEqual({
      key: 'rzp_test_key',
      amount: 39950,
      currency: 'INR',
      name: 'Persona Books',
      description: 'Order for The Hobbit',
      order_id: 'order_ABC123',
      prefill: { name: 'Asha Rao', email: 'asha@example.com', contact: '9876543210' },
      notes: { bookId: 'book-1', deliveryType: 'physical' },
      theme: { color: '#6366f1' },
      handler: undefined,
      modal: undefined,
    });
    options.handler(response);
    options.modal.ondismiss();
    expect(onPaid).toHaveBeenCalledWith(response);
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });
});

describe('toast texts (spec §8)', () => {
  it('initiation: the server message, else "Something went wrong!"', () => {
    expect(initiationErrorText(new ApiError(400, 'phone must match the pattern'))).toBe('phone must match the pattern');
    expect(initiationErrorText(new ApiError(503, ''))).toBe('Something went wrong!');
    expect(initiationErrorText(new TypeError('Failed to fetch'))).toBe('Something went wrong!');
    expect(initiationErrorText('boom')).toBe('Something went wrong!');
  });

  it('verification: the error message, else "Payment verification failed", else "Something went wrong!"', () => {
    expect(verificationErrorText(new ApiError(400, 'Payment verification failed'))).toBe('Payment verification failed');
    expect(verificationErrorText(new ApiError(400, 'Signature mismatch'))).toBe('Signature mismatch');
    expect(verificationErrorText(new ApiError(400, ''))).toBe('Payment verification failed');
    expect(verificationErrorText(new Error('Network down'))).toBe('Network down');
    expect(verificationErrorText(undefined)).toBe('Something went wrong!');
  });
});
