// Which provider the shop pays through: live keys → Razorpay; otherwise (or
// with PAYMENTS_MODE=test) test mode on the local stand-in, signing with the
// configured secrets or the documented test defaults.
import type { Logger } from '@persona/service-kit';
import type { PaymentMode, PaymentProvider } from '../payment-provider/payment-provider';
import { RazorpayProvider, TEST_MODE_KEYS, type RazorpayKeys } from './razorpay/razorpay-provider';
import { startStandIn, type StandIn } from './test-mode/start-stand-in';
import type { DeliverWebhook } from './test-mode/razorpay-stand-in';

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

export interface PaymentsSetup {
  provider: PaymentProvider;
  mode: PaymentMode;
  /** Test mode's local Razorpay (its "buyer pays" action is a route of ours). */
  standIn?: StandIn;
  close(): Promise<void>;
}

/**
 * The provider for these settings; in test mode the stand-in is started and sends its webhooks
 * through `deliverWebhook`, its state in the Redis of `shared.redisUrl` (REDIS_URL) when there is one.
 */
export async function createPaymentProvider(
  settings: PaymentSettings,
  deliverWebhook: DeliverWebhook,
  logger: Logger,
  shared: { redisUrl?: string } = {},
): Promise<PaymentsSetup> {
  const { mode, keys } = choosePaymentMode(settings);
  if (mode === 'live') return { provider: new RazorpayProvider('live', keys), mode, close: async () => undefined };
  const standIn = await startStandIn(keys, deliverWebhook, { redisUrl: shared.redisUrl });
  logger.info({ keyId: keys.keyId, state: shared.redisUrl ? 'redis' : 'memory' }, 'payments in TEST MODE (local Razorpay stand-in)');
  return { provider: new RazorpayProvider('test', keys, standIn.url), mode, standIn, close: () => standIn.close() };
}
