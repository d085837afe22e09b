// Orders' side of an order's life after payment: its tax invoice and confirmation e-mail once order.paid is out
// (whichever of verify, webhook or reconciler saw the payment), and the personalisation service
// saying a Persona is ready (queue the buyer's e-mail, and a gift's to its recipient for its day,
// in the same transaction) or failed (queue the buyer's notice and the shop's alert, likewise).
//
// The buyer's first e-mail: the confirmation is due a minute after payment (CONFIRMATION_DELAY_MS);
// a Persona ready before it went out takes its place, the ready e-mail then being the receipt too.
// The two events travel on different queues and may come in either order, or after a restart:
// both handlers decide under the order's row lock from what the `emails` table holds (a
// confirmation not yet sent nor held by a relay can still be withdrawn), never from a timer.
import { eventLogger, handleOnce, type BusLogger, type EventBus, type KnownEvent, type Subscription } from '@persona/bus';
import type { Kysely, Transaction } from 'kysely';
import type { OrdersDB } from '../../db';
import { dropUnsentEmails, queueEmail, withdrawUnsentEmail } from '../mail/emails.repository';
import type { GiftPictures } from '../catalogue/catalogue-client';
import type { ShopMail } from '../mail/emails.repository';
import { giftDeliveryEmail, orderConfirmedEmail, personaFailedAlert, personaFailedEmail, personaReadyEmail, type ReadyReceipt } from '../mail/order-emails';
import * as repo from '../order-records/orders.repository';
import type { OrderRow } from '../order-records/orders.repository';
import { reissueOfPersona } from './reissue-persona';
import { invoicePaidOrder, invoicePdf, type InvoiceSettings } from '../invoices/order-invoice';
import { creditRefundsOfInvoice } from '../refunds/refunds';
import type { Invoice } from '../invoices/invoices.repository';
import { OWN_COURIER, queuePrintJob } from '../order-records/print-jobs.repository';

export const ORDERS_PERSONA_QUEUE = 'orders.personas';

/** What personalisation tells orders about a Persona. */
export type PersonaOutcomeEvent = KnownEvent<'persona.ready' | 'persona.failed'>;

/** The pictures of a gift's e-mail to its recipient, found before the transaction (a call to the catalogue holds no lock). */
export type GiftPicturesOf = (order: OrderRow) => Promise<GiftPictures>;

/** The issued invoice of an order, for the receipt's line. */
const invoiceOf = (db: Kysely<OrdersDB> | Transaction<OrdersDB>, orderId: string) =>
  db.selectFrom('invoices').select('number').where('order_id', '=', orderId).where('kind', '=', 'invoice').executeTakeFirst();

/**
 * Whether the ready e-mail is also the order's receipt: the confirmation was not queued yet
 * (order.paid comes later) or is withdrawn now, before any relay took it. Under the order's lock.
 */
async function readyIsReceipt(trx: Transaction<OrdersDB>, order: OrderRow): Promise<ReadyReceipt | undefined> {
  const confirmation = await trx
    .selectFrom('emails')
    .select('id')
    .where('order_id', '=', order.id)
    .where('kind', '=', 'order-confirmed')
    .where('occasion', '=', '')
    .executeTakeFirst();
  if (confirmation && !(await withdrawUnsentEmail(trx, confirmation.id))) return undefined;
  const invoice = await invoiceOf(trx, order.id);
  return invoice ? { invoice } : {};
}

export async function applyPersonaEvent(
  db: Kysely<OrdersDB>,
  event: PersonaOutcomeEvent,
  shop: ShopMail,
  giftPictures?: GiftPicturesOf,
  /** The print provider a printed copy whose files are ready is queued for (print-jobs.ts); the shop's own courier by default. */
  printProvider = OWN_COURIER,
): Promise<'ready' | 'failed' | 'ignored'> {
  let outcome: 'ready' | 'failed' | 'ignored' = 'ignored';
  let pictures: GiftPictures = {};
  if (event.type === 'persona.ready' && giftPictures) {
    const before = await repo.findOrderByPersonaId(db, event.payload.personaId);
    if (before?.gift_recipient_email) pictures = await giftPictures(before);
  }
  await handleOnce(db, 'orders', event, async (trx) => {
    if (event.type === 'persona.ready') {
      const { payload } = event;
      const order = await repo.setPersonaStatus(trx, payload.personaId, { status: 'ready', sha256: payload.sha256, formats: payload.formats });
      if (!order) return;
      // A re-issued Persona is a new occasion for the same e-mails: the buyer (and a gift's recipient) get the new one.
      const reissue = await reissueOfPersona(trx, payload.personaId);
      const occasion = reissue ? { occasion: `reissue:${reissue.id}` } : {};
      // What was still waiting to go out about the replaced Persona (a gift's e-mail for its day) would link a download that is gone.
      if (reissue) await dropUnsentEmails(trx, order.id, ['persona-ready', 'gift-delivery'], occasion.occasion!);
      // setPersonaStatus's update holds the order's row: order.paid's handler waits for this decision, or made its own.
      const receipt = reissue ? undefined : await readyIsReceipt(trx, order);
      await queueEmail(trx, { ...personaReadyEmail(order, shop, event.correlationId || null, reissue?.old_persona_id, receipt), ...occasion });
      // A gift's recipient gets it on its day: queued now, sent by the relay when its time comes.
      const gift = giftDeliveryEmail(order, shop, event.correlationId || null, pictures);
      if (gift) await queueEmail(trx, { ...gift, ...occasion });
      // A printed copy whose print files passed the preflight: its print job, for the print provider.
      if (payload.print?.ready) await queuePrintJob(trx, order, printProvider);
      outcome = 'ready';
    } else if (event.type === 'persona.failed') {
      const { payload } = event;
      // A failure that arrives after the Persona was made changes nothing and tells no one.
      const order = await repo.setPersonaStatus(trx, payload.personaId, { status: 'failed', error: payload.reason });
      if (!order) return;
      // The buyer is told once per order: a retry that fails again changes nothing they were
      // promised. The shop is alerted once per failure, named by this event's id; a redelivered
      // event never gets here (the inbox).
      await queueEmail(trx, personaFailedEmail(order, shop, event.correlationId || null));
      await queueEmail(trx, personaFailedAlert(order, shop, event.id, event.correlationId || null));
      outcome = 'failed';
    }
  });
  return outcome;
}

export function subscribePersonaEvents(
  bus: EventBus,
  db: Kysely<OrdersDB>,
  shop: ShopMail,
  afterQueued: () => void,
  logger?: BusLogger,
  giftPictures?: GiftPicturesOf,
  printProvider?: string,
): Promise<Subscription> {
  return bus.subscribe({
    queue: ORDERS_PERSONA_QUEUE,
    bindings: ['persona.ready', 'persona.failed'],
    handler: async (event) => {
      const outcome = await applyPersonaEvent(db, event, shop, giftPictures, printProvider);
      if (logger) {
        const log = eventLogger(logger, event, { personaId: event.payload.personaId });
        if (outcome === 'ready') log.info({}, 'persona ready on the order; e-mail queued');
        else if (outcome === 'failed') log.warn({}, "persona failed on the order; the buyer's notice and the shop's alert queued");
        else log.debug?.({}, 'persona event changed nothing (duplicate or unknown order)');
      }
      if (outcome !== 'ignored') afterQueued();
    },
  });
}

export const ORDERS_RECEIPT_QUEUE = 'orders.receipts';

/**
 * order.paid: the order's tax invoice and its confirmation e-mail (the receipt, naming the
 * invoice, due a minute later), in one transaction, once per order however often order.paid
 * arrives; the invoice's PDF is drawn after it commits. A Persona already ready has had its e-mail
 * made the receipt: no confirmation, and that e-mail, while it waits, names the invoice now issued.
 */
export async function applyOrderPaid(db: Kysely<OrdersDB>, event: KnownEvent<'order.paid'>, shop: ShopMail, invoicing?: InvoiceSettings): Promise<boolean> {
  let queued = false;
  let invoice: Invoice | undefined;
  await handleOnce(db, 'orders.receipts', event, async (trx) => {
    // The order's row lock: persona.ready's handler decides on the same row which e-mail is the receipt.
    const order = await repo.findOrderForUpdate(trx, event.payload.orderId);
    if (!order || order.payment_status !== 'paid') return;
    invoice = invoicing ? await invoicePaidOrder(trx, order, invoicing) : undefined;
    // A refund processed before the invoice existed gets its credit note now.
    if (invoice) await creditRefundsOfInvoice(trx, invoice);
    const ready = await trx
      .selectFrom('emails')
      .select('id')
      .where('order_id', '=', order.id)
      .where('kind', '=', 'persona-ready')
      .where('occasion', '=', '')
      .executeTakeFirst();
    if (!ready) {
      await queueEmail(trx, orderConfirmedEmail(order, shop, event.correlationId || null, invoice));
      queued = true;
    } else if (invoice && (await withdrawUnsentEmail(trx, ready.id))) {
      await queueEmail(trx, personaReadyEmail(order, shop, event.correlationId || null, undefined, { invoice }));
      queued = true;
    }
  });
  if (invoice) await invoicePdf(db, invoice, invoicing?.draw);
  return queued;
}

export function subscribeOrderReceipts(
  bus: EventBus,
  db: Kysely<OrdersDB>,
  shop: ShopMail,
  afterQueued: () => void,
  logger?: BusLogger,
  invoicing?: InvoiceSettings,
): Promise<Subscription> {
  return bus.subscribe({
    queue: ORDERS_RECEIPT_QUEUE,
    bindings: ['order.paid'],
    handler: async (event) => {
      const queued = await applyOrderPaid(db, event, shop, invoicing);
      if (logger) eventLogger(logger, event, { orderId: event.payload.orderId }).debug?.({ queued }, 'order confirmation');
      if (queued) afterQueued();
    },
  });
}
