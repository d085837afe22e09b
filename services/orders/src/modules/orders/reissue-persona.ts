// An administrator re-issues an order's Persona with a corrected name or message (issue 23): a new
// Persona with a new id, made by personalisation's usual path (persona.reissue_requested, the order's
// details with the corrections), which marks the old one replaced once the new one is ready. The
// order then names the new Persona: the library, the buyer's lookup and the e-mail that it is ready
// (queued when personalisation says so). The tax invoice stays as issued: it cites the order. One
// transaction with its event; the re-issue's id is the page's, so a second press makes one Persona.
import { randomBytes } from 'node:crypto';
import { createEvent } from '@persona/bus';
import {
  formatPersonaId,
  giftMessageProblem,
  normalizeGiftMessage,
  normalizePrintedName,
  printedNameProblem,
  type PersonaReissue,
  type ReissuePersonaBody,
} from '@persona/contracts';
import { badRequest, conflict, notFound } from '@persona/service-kit';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { OrdersDB, PersonaReissuesTable } from '../../db';
import { personaRequest } from '../payments/mark-order-paid';
import type { OrderChangeContext } from '../order-records/order-change-context';
import * as repo from '../order-records/orders.repository';

type ReissueRow = Selectable<PersonaReissuesTable>;

export const toPersonaReissue = (r: ReissueRow): PersonaReissue => ({
  _id: r.id,
  oldPersonaId: r.old_persona_id,
  newPersonaId: r.new_persona_id,
  buyerName: r.buyer_name,
  recipientName: r.recipient_name,
  message: r.message,
  reason: r.reason,
  requestedBy: r.requested_by,
  createdAt: r.created_at.toISOString(),
});

/** The names as they will be printed, checked with the checkout's own rules; a 400 that says what is wrong. */
function corrected(order: repo.OrderRow, body: ReissuePersonaBody) {
  const gift = order.gift_recipient_name !== null;
  if (!gift && (body.recipientName !== undefined || body.message !== undefined))
    throw badRequest('This order is not a gift: it has no recipient or message to correct');
  const buyerProblem = printedNameProblem(body.buyerName, "The buyer's name");
  if (buyerProblem) throw badRequest(buyerProblem);
  if (body.recipientName !== undefined) {
    const problem = printedNameProblem(body.recipientName, "The recipient's name");
    if (problem) throw badRequest(problem);
  }
  if (body.message) {
    const problem = giftMessageProblem(body.message);
    if (problem) throw badRequest(problem);
  }
  const names = {
    buyerName: normalizePrintedName(body.buyerName),
    recipientName: !gift ? null : body.recipientName !== undefined ? normalizePrintedName(body.recipientName) : order.gift_recipient_name,
    message: !gift ? null : body.message !== undefined ? normalizeGiftMessage(body.message) || null : order.gift_message,
  };
  if (names.buyerName === order.full_name && names.recipientName === order.gift_recipient_name && names.message === order.gift_message)
    throw badRequest('Nothing is corrected: change the name or the message before re-issuing');
  return names;
}

export async function reissuePersona(ctx: OrderChangeContext, orderId: string, body: ReissuePersonaBody): Promise<PersonaReissue> {
  const reason = body.reason.trim();
  return ctx.uow.run(async ({ trx, emit }) => {
    const order = await repo.findOrderForUpdate(trx, orderId);
    if (!order) throw notFound('Order not found');
    const existing = await trx.selectFrom('persona_reissues').selectAll().where('id', '=', body.reissueId).executeTakeFirst();
    if (existing) {
      if (existing.order_id !== orderId) throw conflict('That re-issue id belongs to another order', 'REISSUE_ID_TAKEN');
      return toPersonaReissue(existing);
    }
    if (order.payment_status !== 'paid') throw conflict("Only a paid order's Persona can be re-issued", 'NOT_PAID');
    if (order.refunded_in_full_at) throw conflict("This order was refunded in full: its Persona's licence has ended, there is nothing to re-issue", 'REFUNDED');
    if (order.persona_status !== 'ready')
      throw conflict('The Persona is not ready: re-issue it once it is made (a failed one is made again with "Retry")', 'PERSONA_NOT_READY');
    const names = corrected(order, body);
    const newPersonaId = formatPersonaId(randomBytes(10));
    const row = await trx
      .insertInto('persona_reissues')
      .values({
        id: body.reissueId,
        order_id: orderId,
        old_persona_id: order.persona_id,
        new_persona_id: newPersonaId,
        buyer_name: names.buyerName,
        recipient_name: names.recipientName,
        message: names.message,
        reason,
        requested_by: ctx.actor?.email ?? 'unknown',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const updated = await trx
      .updateTable('orders')
      .set({
        persona_id: newPersonaId,
        full_name: names.buyerName,
        gift_recipient_name: names.recipientName,
        gift_message: names.message,
        persona_status: 'generating',
        persona_sha256: null,
        persona_error: null,
        persona_formats: null,
        updated_at: sql`now()`,
      })
      .where('id', '=', orderId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await emit(
      createEvent(
        'persona.reissue_requested',
        { ...personaRequest(updated), reissueId: row.id, replacesPersonaId: row.old_persona_id, reason },
        { correlationId: ctx.correlationId, actor: ctx.actor },
      ),
    );
    return toPersonaReissue(row);
  });
}

/** The order's re-issues, oldest first. */
export function reissuesOfOrder(db: Kysely<OrdersDB>, orderId: string): Promise<ReissueRow[]> {
  return db.selectFrom('persona_reissues').selectAll().where('order_id', '=', orderId).orderBy('created_at').execute();
}

/** The re-issue that made this Persona, if one did (its e-mail, a retry of it). */
export function reissueOfPersona(db: Kysely<OrdersDB>, personaId: string): Promise<ReissueRow | undefined> {
  return db.selectFrom('persona_reissues').selectAll().where('new_persona_id', '=', personaId).executeTakeFirst();
}
