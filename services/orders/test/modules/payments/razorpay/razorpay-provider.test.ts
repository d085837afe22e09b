// Razorpay's webhook JSON as the neutral action the use cases act on.
import { razorpayWebhookAction } from '../../../../src/modules/payments/razorpay/razorpay-provider';

const payment = (entity: Record<string, unknown>) => ({ payment: { entity } });

describe("Razorpay's webhooks as actions", () => {
  it('reads a capture with its amount in paise, from the payment or the paid order', () => {
    expect(razorpayWebhookAction({ event: 'payment.captured', payload: payment({ id: 'pay_1', order_id: 'order_1', amount: 34900 }) })).toEqual({
      action: 'captured',
      type: 'payment.captured',
      providerOrderId: 'order_1',
      paymentId: 'pay_1',
      amountPaise: 34900,
    });
    expect(razorpayWebhookAction({ event: 'order.paid', payload: { order: { entity: { id: 'order_2', amount: 100, amount_paid: 100 } } } })).toEqual({
      action: 'captured',
      type: 'order.paid',
      providerOrderId: 'order_2',
      paymentId: null,
      amountPaise: 100,
    });
  });

  it('reads a failure with its reason, and an authorisation', () => {
    expect(
      razorpayWebhookAction({ event: 'payment.failed', payload: payment({ id: 'pay_3', order_id: 'order_3', error_description: 'Card declined' }) }),
    ).toEqual({
      action: 'failed',
      type: 'payment.failed',
      providerOrderId: 'order_3',
      paymentId: 'pay_3',
      reason: 'Card declined',
    });
    expect(razorpayWebhookAction({ event: 'payment.authorized', payload: payment({ id: 'pay_4', order_id: 'order_4' }) })).toMatchObject({
      action: 'authorized',
      providerOrderId: 'order_4',
    });
  });

  it('acts on nothing else: another event, no order named, or not an object at all', () => {
    expect(razorpayWebhookAction({ event: 'refund.created', payload: payment({ id: 'pay_5', order_id: 'order_5' }) })).toEqual({
      action: 'not_supported',
      type: 'refund.created',
    });
    expect(razorpayWebhookAction({ event: 'payment.captured', payload: payment({ id: 'pay_6', amount: 100 }) })).toEqual({
      action: 'not_supported',
      type: 'payment.captured',
    });
    expect(razorpayWebhookAction(null)).toEqual({ action: 'not_supported', type: 'unknown' });
    expect(razorpayWebhookAction({ event: 42 })).toEqual({ action: 'not_supported', type: 'unknown' });
  });
});
