// A subscriber as the API and the CSV export show them.
import { SUBSCRIBERS_CSV_HEADER, toCsv, toCsvRows, type Subscriber } from '@persona/contracts';
import type { SubscriberRow } from './subscribers.repository';

export const toSubscriber = (row: SubscriberRow): Subscriber => ({ email: row.email, subscribedAt: row.subscribed_at.toISOString() });

/** The CSV record of a subscriber (SUBSCRIBERS_CSV_HEADER's columns). */
export const subscriberRecord = (row: SubscriberRow): string[] => [row.email, row.subscribed_at.toISOString()];

/** `subscribers.csv` as chunks of text: the header with the first batch, then one chunk per batch. */
export async function* subscribersCsv(batches: AsyncIterable<SubscriberRow[]>): AsyncGenerator<string> {
  let first = true;
  for await (const rows of batches) {
    const records = rows.map(subscriberRecord);
    if (first || records.length > 0) yield first ? toCsv(SUBSCRIBERS_CSV_HEADER, records) : toCsvRows(records);
    first = false;
  }
}
