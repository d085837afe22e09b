// The payment webhooks' inbox (webhook_events): each delivery recorded once by its event id, then
// claimed, handled and retried in turn.
import { sql, type Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import type { WebhookAction } from '../payment-provider/payment-provider';

type Db = Kysely<OrdersDB>;

/**
 * Records a webhook delivery in the inbox, once per event id: false for a redelivery. An action
 * this shop does not act on is recorded as handled already (nothing is left to do for it).
 */
export async function recordWebhookEvent(db: Db, eventId: string, action: WebhookAction): Promise<boolean> {
  const handled = action.action === 'not_supported';
  const result = await db
    .insertInto('webhook_events')
    .values({
      event_id: eventId,
      event: action.type,
      action: JSON.stringify(action),
      due_at: handled ? null : sql<Date>`now()`,
      handled_at: handled ? sql<Date>`now()` : null,
      outcome: handled ? 'ignored' : null,
    })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The oldest due webhook not yet handled, locked for this transaction (others skip it). */
export async function claimDueWebhookEvent(db: Db): Promise<{ eventId: string; action: WebhookAction; attempts: number } | undefined> {
  const row = await db
    .selectFrom('webhook_events')
    .select(['event_id', 'action', 'attempts'])
    .where('handled_at', 'is', null)
    .where('due_at', '<=', sql<Date>`now()`)
    .orderBy('due_at')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  return row && { eventId: row.event_id, action: row.action as WebhookAction, attempts: row.attempts };
}

export async function webhookEventHandled(db: Db, eventId: string, outcome: string): Promise<void> {
  await db
    .updateTable('webhook_events')
    .set({ handled_at: sql`now()`, due_at: null, outcome, last_error: null })
    .where('event_id', '=', eventId)
    .execute();
}

/** A handling that failed (the database, a bug): tried again after `retryInMs`. */
export async function webhookEventFailed(db: Db, eventId: string, error: string, retryInMs: number): Promise<void> {
  await db
    .updateTable('webhook_events')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_error: error.slice(0, 500),
      due_at: sql<Date>`now() + make_interval(secs => ${retryInMs / 1000}::double precision)`,
    }))
    .where('event_id', '=', eventId)
    .where('handled_at', 'is', null)
    .execute();
}

/** What the inbox holds undone (metrics, the order page): how many, and the oldest's age. */
export async function pendingWebhookEvents(db: Db): Promise<{ count: number; oldestReceivedAt: Date | null }> {
  const row = await db
    .selectFrom('webhook_events')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('received_at').as('oldest')])
    .where('handled_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldestReceivedAt: (row.oldest as Date | null) ?? null };
}
