// Newsletter subscribers: the administrator's list (newest first, a page at a time by cursor,
// found by the beginning of an address) and the CSV export (read in keyset batches, so a long
// list is never held at once).
import { COUNT_CAP, DEFAULT_PAGE_SIZE, PERSON_SEARCH_COUNT_CAP } from '@persona/contracts';
import { countedPage, keysetPage, likeLiteral, sql, type CountedPage, type CursorValue, type KeysetColumn } from '@persona/db';
import type { Kysely } from 'kysely';
import type { AdminDB } from '../../db';
import type { ListRequest } from '../lists/list-request';

export const EXPORT_BATCH_SIZE = 1000;

/** Newest first, ties by address: the (subscribed_at, email) b-tree read backwards. */
export const SUBSCRIBER_KEYS: readonly KeysetColumn[] = [
  { ref: 'subscribed_at', cast: 'timestamptz' },
  { ref: 'email', cast: 'text' },
];

function filteredSubscribers(db: Kysely<AdminDB>, search: string | undefined) {
  const q = db.selectFrom('subscribers');
  const text = search?.trim().toLowerCase();
  // Addresses are stored lower-cased: the text_pattern_ops index answers the beginning.
  return text ? q.where(sql<boolean>`email LIKE ${`${likeLiteral(text)}%`}`) : q;
}

// The cursor keeps the timestamp as text: PostgreSQL keeps microseconds, a JavaScript Date only milliseconds.
const withCursor = (db: Kysely<AdminDB>, search: string | undefined) =>
  filteredSubscribers(db, search).select(['email', 'subscribed_at', sql<string>`subscribed_at::text`.as('cursor_at')]);
const subscriberKey = (row: { cursor_at: string; email: string }): CursorValue[] => [row.cursor_at, row.email];

export interface SubscriberRow {
  email: string;
  subscribed_at: Date;
}

export async function listSubscribers(db: Kysely<AdminDB>, request: ListRequest): Promise<CountedPage<SubscriberRow>> {
  const { search, limit = DEFAULT_PAGE_SIZE, countCap = COUNT_CAP, ...cursors } = request;
  const cap = search?.trim() ? Math.min(countCap, PERSON_SEARCH_COUNT_CAP) : countCap;
  const page = await countedPage(db, withCursor(db, search), filteredSubscribers(db, search), SUBSCRIBER_KEYS, subscriberKey, {
    limit,
    countCap: cap,
    sparse: Boolean(search?.trim()),
    ...cursors,
  });
  return page;
}

/** Every subscriber, newest first, a keyset batch at a time (so a long list is never held at once). */
export async function* subscriberBatches(db: Kysely<AdminDB>, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<SubscriberRow[]> {
  let after: CursorValue[] | undefined;
  for (;;) {
    const page = await keysetPage(withCursor(db, undefined), SUBSCRIBER_KEYS, subscriberKey, { limit: batchSize, after });
    yield page.rows;
    if (!page.next) return;
    after = subscriberKey(page.rows.at(-1)!);
  }
}

/** Adds the address (lower-cased); false when it was already subscribed. */
export async function subscribe(db: Kysely<AdminDB>, email: string): Promise<boolean> {
  const inserted = await db
    .insertInto('subscribers')
    .values({ email: email.trim().toLowerCase() })
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}
