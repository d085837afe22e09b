// Orders' side of "Ask for more downloads" (issue 24): personalisation records the single-use link
// and announces persona.download_renewal_requested; orders, which alone knows the buyer's address,
// queues the e-mail to it through its inbox (once however often the event arrives).
import { eventLogger, handleOnce, type BusLogger, type EventBus, type KnownEvent, type Subscription } from '@persona/bus';
import type { Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import { downloadRenewalEmail } from '../mail/download-renewal-email';
import { queueEmail, type ShopMail } from '../mail/emails.repository';
import { findOrderById } from '../orders/orders.repository';

export const ORDERS_DOWNLOAD_RENEWAL_QUEUE = 'orders.download-renewals';

/** Queues the buyer's e-mail; false when the event was seen before or names no order. */
export async function applyDownloadRenewal(db: Kysely<OrdersDB>, event: KnownEvent<'persona.download_renewal_requested'>, shop: ShopMail): Promise<boolean> {
  let queued = false;
  await handleOnce(db, ORDERS_DOWNLOAD_RENEWAL_QUEUE, event, async (trx) => {
    const order = await findOrderById(trx, event.payload.orderId);
    if (!order) return;
    await queueEmail(trx, downloadRenewalEmail(order, event.payload, shop, event.correlationId || null));
    queued = true;
  });
  return queued;
}

export function subscribeDownloadRenewals(
  bus: EventBus,
  db: Kysely<OrdersDB>,
  shop: ShopMail,
  afterQueued: () => void,
  logger?: BusLogger,
): Promise<Subscription> {
  return bus.subscribe({
    queue: ORDERS_DOWNLOAD_RENEWAL_QUEUE,
    bindings: ['persona.download_renewal_requested'],
    handler: async (event) => {
      const queued = await applyDownloadRenewal(db, event, shop);
      if (logger) eventLogger(logger, event, { personaId: event.payload.personaId }).info({ queued }, "more downloads asked for: the buyer's e-mail queued");
      if (queued) afterQueued();
    },
  });
}
