// All kysely code of the retention round: each statement prunes at most RETENTION_BATCH rows found
// by an index (migration 20270126000000_retention), so it holds few locks for a short time, and
// the round repeats it until a batch comes back short.
import { sql, type Kysely } from 'kysely';
import type { OrdersDB } from '../../db';

type Db = Kysely<OrdersDB>;

/** Rows pruned per statement: no long lock or transaction, even with a million rows due. */
export const RETENTION_BATCH = 1000;

const affected = (result: { numAffectedRows?: bigint }) => Number(result.numAffectedRows ?? 0);

/**
 * E-mails about no order (library sign-in links, answers to visitors' messages, download links)
 * sent before `cutoff`: nothing refers to them, so the row goes with its body.
 */
export async function deleteOrderlessEmails(db: Db, cutoff: Date, limit = RETENTION_BATCH): Promise<number> {
  return affected(
    await sql`
      DELETE FROM emails WHERE id IN (
        SELECT id FROM emails
        WHERE text_body <> '' AND sent_at < ${cutoff} AND order_id IS NULL
        ORDER BY sent_at
        LIMIT ${limit})`.execute(db),
  );
}

/**
 * An order's e-mails sent before `cutoff` lose their bodies and keep their rows: the order page
 * lists what was sent, to whom and when, and the row is what says the order had its e-mail of that
 * kind (a redelivered event queues no second one). An empty text body is the mark of a pruned one.
 */
export async function blankEmailBodies(db: Db, cutoff: Date, limit = RETENTION_BATCH): Promise<number> {
  return affected(
    await sql`
      UPDATE emails SET text_body = '', html_body = NULL WHERE id IN (
        SELECT id FROM emails
        WHERE text_body <> '' AND sent_at < ${cutoff}
        ORDER BY sent_at
        LIMIT ${limit})`.execute(db),
  );
}

/** Payment webhooks handled before `cutoff` (one not yet handled stays, whatever its age: the inbox still owes it). */
export async function deleteHandledWebhookEvents(db: Db, cutoff: Date, limit = RETENTION_BATCH): Promise<number> {
  return deleteBefore(db, { table: 'webhook_events', key: 'event_id', column: 'handled_at' }, cutoff, limit);
}

/**
 * Payment attempts made before `cutoff`, but for those of an order with a refund still under way
 * (requested or pending): its payment's story is kept until the refund is settled.
 */
export async function deletePaymentAttempts(db: Db, cutoff: Date, limit = RETENTION_BATCH): Promise<number> {
  return affected(
    await sql`
      DELETE FROM payment_attempts WHERE id IN (
        SELECT a.id FROM payment_attempts a
        WHERE a.created_at < ${cutoff}
          AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.order_id = a.order_id AND r.status IN ('requested', 'pending'))
        ORDER BY a.created_at
        LIMIT ${limit})`.execute(db),
  );
}

/** Library links and sessions that stopped working before `cutoff`: they open nothing any more. */
export async function deleteExpiredLibraryTokens(db: Db, cutoff: Date, limit = RETENTION_BATCH): Promise<number> {
  return deleteBefore(db, { table: 'library_tokens', key: 'token_hash', column: 'expires_at' }, cutoff, limit);
}

/** At most `limit` rows of a table whose `column` is before `cutoff`, oldest first (found by the index on `column`), deleted by their `key`. */
async function deleteBefore(db: Db, rows: { table: string; key: string; column: string }, cutoff: Date, limit: number): Promise<number> {
  const [table, key, column] = [sql.table(rows.table), sql.ref(rows.key), sql.ref(rows.column)];
  return affected(
    await sql`
      DELETE FROM ${table} WHERE ${key} IN (
        SELECT ${key} FROM ${table}
        WHERE ${column} < ${cutoff}
        ORDER BY ${column}
        LIMIT ${limit})`.execute(db),
  );
}
