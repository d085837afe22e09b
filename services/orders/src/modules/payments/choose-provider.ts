// Live keys → Razorpay; otherwise (or with PAYMENTS_MODE=test) test mode on
// the local stand-in, signing with the configured secrets or the documented
// test defaults.
import { TEST_MODE_KEYS, type PaymentMode, type RazorpayKeys } from './payment-provider';

export interface PaymentSettings {
  mode?: PaymentMode;
  keyId?: string;
  keySecret?: string;
  webhookSecret?: string;
}

export function choosePaymentMode(settings: PaymentSettings): { mode: PaymentMode; keys: RazorpayKeys } {
  const live = Boolean(settings.keyId && settings.keySecret && settings.webhookSecret) && settings.mode !== 'test';
  if (settings.mode === 'live' && !live) {
    throw new Error('PAYMENTS_MODE=live needs RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET');
  }
  if (live) return { mode: 'live', keys: { keyId: settings.keyId!, keySecret: settings.keySecret!, webhookSecret: settings.webhookSecret! } };
  return {
    mode: 'test',
    keys: {
      keyId: settings.keyId ?? TEST_MODE_KEYS.keyId,
      keySecret: settings.keySecret ?? TEST_MODE_KEYS.keySecret,
      webhookSecret: settings.webhookSecret ?? TEST_MODE_KEYS.webhookSecret,
    },
  };
}
