// Orders' side of "Ask for more downloads" (issue 24): personalisation records the single-use link
// and announces persona.download_renewal_requested; orders, which alone knows the buyer's address,
// queues the e-mail to it (event-emails: once however often the event arrives).
import type { BusLogger, EventBus, KnownEvent, Subscription } from '@persona/bus';
import type { Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import { downloadRenewalEmail } from '../mail/download-renewal-email';
import type { ShopMail } from '../mail/emails.repository';
import { applyEventEmail, subscribeEventEmail, type EventEmail } from '../mail/event-emails';
import { findOrderById } from '../order-records/orders.repository';

export const ORDERS_DOWNLOAD_RENEWAL_QUEUE = 'orders.download-renewals';

const renewals = (shop: ShopMail): EventEmail<'persona.download_renewal_requested'> => ({
  queue: ORDERS_DOWNLOAD_RENEWAL_QUEUE,
  type: 'persona.download_renewal_requested',
  emailOf: async (trx, event) => {
    const order = await findOrderById(trx, event.payload.orderId);
    return order ? downloadRenewalEmail(order, event.payload, shop, event.correlationId || null) : null;
  },
  logged: (event) => ({ fields: { personaId: event.payload.personaId }, message: "more downloads asked for: the buyer's e-mail queued" }),
});

/** Queues the buyer's e-mail; false when the event was seen before or names no order. */
export const applyDownloadRenewal = (db: Kysely<OrdersDB>, event: KnownEvent<'persona.download_renewal_requested'>, shop: ShopMail) =>
  applyEventEmail(db, renewals(shop), event);

export const subscribeDownloadRenewals = (
  bus: EventBus,
  db: Kysely<OrdersDB>,
  shop: ShopMail,
  afterQueued: () => void,
  logger?: BusLogger,
): Promise<Subscription> => subscribeEventEmail(bus, db, renewals(shop), afterQueued, logger);
