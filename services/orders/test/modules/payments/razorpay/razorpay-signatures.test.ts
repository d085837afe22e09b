import { choosePaymentMode } from '../../../../src/modules/payments/create-payment-provider';
import { TEST_MODE_KEYS } from '../../../../src/modules/payments/razorpay/razorpay-provider';
import { paymentSignature, safeEqualHex, webhookSignature } from '../../../../src/modules/payments/razorpay/razorpay-signatures';
import { personaRequest } from '../../../../src/modules/payments/mark-order-paid';

describe('Razorpay signatures', () => {
  it('match the documented HMAC-SHA256 constructions', () => {
    // printf 'order_A|pay_B' | openssl dgst -sha256 -hmac secret
    expect(paymentSignature('order_A', 'pay_B', 'secret')).toBe('64302fe866b18d796052d1dcbf300cf4e855f198ec279dadef68c28610dd4844');
    // printf '{"a":1}' | openssl dgst -sha256 -hmac whsec
    expect(webhookSignature('{"a":1}', 'whsec')).toBe('19373ef0e8c66f206e49d251e4402291615bbce6ef00922e94a47a213fb76ee1');
    expect(paymentSignature('order_A', 'pay_B', 'secret')).not.toBe(paymentSignature('order_A', 'pay_C', 'secret'));
    expect(webhookSignature('{"a":1}', 'secret')).not.toBe(webhookSignature('{"a":1} ', 'secret'));
  });

  it('compare in constant time and refuse malformed input', () => {
    const good = paymentSignature('order_A', 'pay_B', 'secret');
    expect(safeEqualHex(good, good)).toBe(true);
    expect(safeEqualHex(good, good.toUpperCase())).toBe(true);
    expect(safeEqualHex(good, good.slice(0, 62))).toBe(false);
    expect(safeEqualHex(good, 'zz'.repeat(32))).toBe(false);
    expect(safeEqualHex(good, '')).toBe(false);
  });
});

describe('payment mode', () => {
  it('is test mode without live keys, with the documented defaults', () => {
    expect(choosePaymentMode({})).toEqual({ mode: 'test', keys: TEST_MODE_KEYS });
  });

  it('is live with all three keys, unless PAYMENTS_MODE=test', () => {
    const keys = { keyId: 'rzp_live_x', keySecret: 's', webhookSecret: 'w' };
    expect(choosePaymentMode(keys).mode).toBe('live');
    expect(choosePaymentMode({ ...keys, mode: 'test' })).toEqual({ mode: 'test', keys: { keyId: 'rzp_live_x', keySecret: 's', webhookSecret: 'w' } });
    expect(() => choosePaymentMode({ mode: 'live' })).toThrow(/PAYMENTS_MODE=live needs/);
  });
});

describe('purchase date', () => {
  it('is the calendar date in India', () => {
    const request = (paidAt: string) => personaRequest({ paid_at: new Date(paidAt), gift_recipient_name: null } as Parameters<typeof personaRequest>[0]);
    expect(request('2026-11-21T19:00:00Z').purchaseDate).toBe('2026-11-22');
    expect(request('2026-11-21T18:00:00Z').purchaseDate).toBe('2026-11-21');
  });
});
