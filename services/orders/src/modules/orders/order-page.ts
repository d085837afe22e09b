// The administrator's order page (issue 23): everything the orders service knows of one order, and
// the page's actions that belong here: a private note, and a copy of an e-mail sent again. Each
// action is one transaction with its event for the audit log, and safe to press twice: its id is
// made by the page (a note's id; a resend's request id names the copy's occasion), so a retried or
// doubled request finds the work done and answers the same.
import { createEvent } from '@persona/bus';
import type { OrderDetail, OrderEmail, OrderNote } from '@persona/contracts';
import { badRequest, conflict, notFound } from '@persona/service-kit';
import type { Kysely, Selectable } from 'kysely';
import type { EmailsTable, OrderNotesTable, OrdersDB, PaymentAttemptsTable } from '../../db';
import { queueEmail, type EmailKind } from '../mail/emails.repository';
import { findInvoicesOfOrder } from '../invoices/invoices.repository';
import { indianState } from '../invoices/tax';
import { refundsOfOrder, toOrderRefund } from '../refunds/refunds';
import { toOrder } from '../order-records/orders.mapper';
import { reissuesOfOrder, toPersonaReissue } from './reissue-persona';
import * as repo from '../order-records/orders.repository';
import type { OrderChangeContext } from '../order-records/order-change-context';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const toAttempt = (a: Selectable<PaymentAttemptsTable>): OrderDetail['attempts'][number] => ({
  at: a.created_at.toISOString(),
  razorpayPaymentId: a.razorpay_payment_id,
  outcome: a.outcome,
  source: a.source,
  detail: a.detail,
});

const toEmail = (
  e: Pick<
    Selectable<EmailsTable>,
    'id' | 'kind' | 'to_address' | 'subject' | 'created_at' | 'send_after' | 'sent_at' | 'attempts' | 'last_error' | 'resend_of'
  >,
): OrderEmail => ({
  _id: e.id,
  kind: e.kind,
  to: e.to_address,
  subject: e.subject,
  createdAt: e.created_at.toISOString(),
  sendAfter: iso(e.send_after),
  sentAt: iso(e.sent_at),
  attempts: e.attempts,
  lastError: e.last_error,
  resendOf: e.resend_of,
});

const toNote = (n: Selectable<OrderNotesTable>): OrderNote => ({ _id: n.id, text: n.text, author: n.author, createdAt: n.created_at.toISOString() });

const emailColumns = ['id', 'kind', 'to_address', 'subject', 'created_at', 'send_after', 'sent_at', 'attempts', 'last_error', 'resend_of'] as const;

export async function orderDetail(db: Kysely<OrdersDB>, id: string): Promise<OrderDetail> {
  const row = await repo.findOrderById(db, id);
  if (!row) throw notFound('Order not found');
  const [attempts, emails, notes, invoices, refunds, reissues] = await Promise.all([
    db.selectFrom('payment_attempts').selectAll().where('order_id', '=', id).orderBy('id').execute(),
    db.selectFrom('emails').select(emailColumns).where('order_id', '=', id).orderBy('created_at').orderBy('id').execute(),
    db.selectFrom('order_notes').selectAll().where('order_id', '=', id).orderBy('created_at').orderBy('id').execute(),
    findInvoicesOfOrder(db, id),
    refundsOfOrder(db, id),
    reissuesOfOrder(db, id),
  ]);
  return {
    order: toOrder(row),
    amounts: {
      basePaise: row.base_paise,
      printingPaise: row.printing_paise,
      deliveryPaise: row.delivery_paise,
      discountPaise: row.discount_paise,
      couponCode: row.coupon_code,
      totalPaise: row.amount_paise,
    },
    payment: { razorpayOrderId: row.razorpay_order_id, razorpayPaymentId: row.razorpay_payment_id, paidVia: row.paid_via },
    attempts: attempts.map(toAttempt),
    emails: emails.map(toEmail),
    notes: notes.map(toNote),
    refunds: refunds.map(toOrderRefund),
    reissues: reissues.map(toPersonaReissue),
    invoices: invoices.map((d) => ({
      _id: d.id,
      kind: d.kind,
      number: d.number,
      issuedAt: d.issuedAt.toISOString(),
      totalPaise: d.totals.totalPaise,
      placeOfSupply: `${indianState(d.placeOfSupply).name} (${d.placeOfSupply})`,
    })),
  };
}

/** Adds the note once (its id is the page's); a second call with the same id answers the note as written. */
export async function addOrderNote(ctx: OrderChangeContext, orderId: string, note: { noteId: string; text: string }): Promise<OrderNote> {
  if (!note.text.trim()) throw badRequest('A note needs some words');
  return ctx.uow.run(async ({ trx, emit }) => {
    const order = await repo.findOrderForUpdate(trx, orderId);
    if (!order) throw notFound('Order not found');
    const added = await trx
      .insertInto('order_notes')
      .values({ id: note.noteId, order_id: orderId, author: ctx.actor?.email ?? 'unknown', text: note.text.trim() })
      .onConflict((oc) => oc.column('id').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (added) {
      await emit(
        createEvent('order.note_added', { orderId, personaId: order.persona_id, noteId: note.noteId }, { correlationId: ctx.correlationId, actor: ctx.actor }),
      );
      return toNote(added);
    }
    const existing = await trx.selectFrom('order_notes').selectAll().where('id', '=', note.noteId).executeTakeFirstOrThrow();
    if (existing.order_id !== orderId) throw conflict('That note id belongs to another order', 'NOTE_ID_TAKEN');
    return toNote(existing);
  });
}

/**
 * Queues a copy of one of the order's e-mails, to the same address, once per `requestId` (the
 * copy's occasion): a retried request finds its copy queued. An e-mail not yet sent has nothing to
 * resend: it is on its way (or waits for its day).
 */
export async function resendOrderEmail(ctx: OrderChangeContext, orderId: string, emailId: string, requestId: string): Promise<OrderEmail> {
  const occasion = `resend:${requestId}`;
  return ctx.uow.run(async ({ trx, emit }) => {
    const order = await repo.findOrderForUpdate(trx, orderId);
    if (!order) throw notFound('Order not found');
    const original = await trx.selectFrom('emails').selectAll().where('id', '=', emailId).where('order_id', '=', orderId).executeTakeFirst();
    if (!original) throw notFound('This order has no such e-mail');
    const copyOf = original.resend_of ?? original.id;
    const before = await trx.selectFrom('emails').select(emailColumns).where('order_id', '=', orderId).where('occasion', '=', occasion).executeTakeFirst();
    if (before) return toEmail(before);
    if (!original.sent_at) throw conflict('This e-mail has not been sent yet: it is on its way, or waits for its day', 'EMAIL_NOT_SENT');
    // Its body is past EMAIL_BODY_RETENTION_DAYS (retention/): the row says it was sent, nothing is left to send again.
    if (original.text_body === '')
      throw conflict('This e-mail is older than the shop keeps the text of e-mails, so it cannot be sent again', 'EMAIL_BODY_PRUNED');
    await queueEmail(trx, {
      orderId,
      kind: original.kind as EmailKind,
      to: original.to_address,
      subject: original.subject,
      text: original.text_body,
      html: original.html_body ?? '',
      correlationId: ctx.correlationId,
      occasion,
    });
    const copy = await trx
      .updateTable('emails')
      .set({ resend_of: copyOf })
      .where('order_id', '=', orderId)
      .where('occasion', '=', occasion)
      .returning(emailColumns)
      .executeTakeFirstOrThrow();
    await emit(
      createEvent(
        'order.email_resent',
        { orderId, personaId: order.persona_id, emailId: copy.id, kind: original.kind, to: original.to_address },
        { correlationId: ctx.correlationId, actor: ctx.actor },
      ),
    );
    return toEmail(copy);
  });
}
