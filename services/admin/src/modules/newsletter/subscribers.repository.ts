// Newsletter subscribers: the administrator's list (a page at a time) and the
// CSV export (read in keyset batches, so a long list is never held at once).
import { DEFAULT_PAGE_SIZE, SUBSCRIBERS_CSV_HEADER, toCsv, toCsvRows, type Subscriber, type SubscriberQuery } from '@persona/contracts';
import { sql, type Kysely } from 'kysely';
import type { AdminDB } from '../../db';

export const EXPORT_BATCH_SIZE = 1000;

export async function listSubscribers(db: Kysely<AdminDB>, query: SubscriberQuery): Promise<{ subscribers: Subscriber[]; total: number }> {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const [rows, count] = await Promise.all([
    db.selectFrom('subscribers').selectAll().orderBy('subscribed_at', 'desc').orderBy('email', 'desc').limit(limit).offset((page - 1) * limit).execute(),
    db.selectFrom('subscribers').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { subscribers: rows.map((r) => ({ email: r.email, subscribedAt: r.subscribed_at.toISOString() })), total: Number(count.n) };
}

/**
 * `subscribers.csv`, newest first, as chunks of text: the header with the first
 * batch, then one chunk per batch. The cursor keeps the timestamp as text,
 * because PostgreSQL keeps microseconds and a JavaScript Date only milliseconds.
 */
export async function* subscribersCsv(db: Kysely<AdminDB>, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<string> {
  let cursor: { at: string; email: string } | undefined;
  let first = true;
  for (;;) {
    let q = db
      .selectFrom('subscribers')
      .select(['email', 'subscribed_at', sql<string>`subscribed_at::text`.as('cursor_at')])
      .orderBy('subscribed_at', 'desc')
      .orderBy('email', 'desc')
      .limit(batchSize);
    if (cursor) q = q.where(sql<boolean>`(subscribed_at, email) < (${cursor.at}::timestamptz, ${cursor.email})`);
    const rows = await q.execute();
    const records = rows.map((r) => [r.email, r.subscribed_at.toISOString()]);
    if (first || records.length > 0) yield first ? toCsv(SUBSCRIBERS_CSV_HEADER, records) : toCsvRows(records);
    first = false;
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    cursor = { at: last.cursor_at, email: last.email };
  }
}
