// orders.csv (spec §9: S.No, Customer, Book Title, Delivery Type, Delivery Status, Order ID;
// missing values become Unknown, Untitled, N/A and pending) for every order the filters keep,
// made by the server as a stream: read in keyset batches and written as it goes, so a million
// orders take the memory of one batch (the spec's client-side export cannot hold them).
import { DISPATCH_CSV_HEADER, ORDERS_CSV_HEADER, paiseToRupees, toCsv, toCsvRows, type Address, type CsvCell, type OrderExportQuery } from '@persona/contracts';
import type { Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import { dispatchBatches, orderBatches, type OrderRow } from './orders.repository';

export const EXPORT_BATCH_SIZE = 500;

const orBlank = (value: string | null | undefined, fallback: string) => (value && value.trim() ? value : fallback);

export function orderCsvRecord(order: Pick<OrderRow, 'id' | 'full_name' | 'book_title' | 'delivery_type' | 'delivery_status'>, serial: number): CsvCell[] {
  return [
    serial,
    orBlank(order.full_name, 'Unknown'),
    orBlank(order.book_title, 'Untitled'),
    orBlank(order.delivery_type, 'N/A'),
    orBlank(order.delivery_status, 'pending'),
    orBlank(order.id, 'N/A'),
  ];
}

/** The file as chunks of text: the header with the first batch, then one chunk per batch. */
export async function* exportOrdersCsv(db: Kysely<OrdersDB>, filter: OrderExportQuery, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<string> {
  let serial = 0;
  let first = true;
  for await (const batch of orderBatches(db, filter, batchSize)) {
    const records = batch.map((order) => orderCsvRecord(order, ++serial));
    yield first ? toCsv(ORDERS_CSV_HEADER, records) : toCsvRows(records);
    first = false;
  }
  if (first) yield toCsv(ORDERS_CSV_HEADER, []);
}

/** A dispatch list line: what a printer and a courier need (the date is the payment's, in India). */
export function dispatchCsvRecord(order: OrderRow): CsvCell[] {
  const address = order.address as Address | null;
  const paidAt = order.paid_at ?? order.created_at;
  return [
    order.persona_id,
    order.full_name,
    order.phone,
    address ? [address.line1, address.city, address.zip, address.country].join(', ') : '',
    order.book_title,
    paiseToRupees(order.amount_paise).toFixed(2),
    new Date(paidAt.getTime() + 330 * 60_000).toISOString().slice(0, 10),
  ];
}

/** dispatch-list.csv: every paid printed copy the filters keep, newest first, streamed like orders.csv. */
export async function* exportDispatchCsv(db: Kysely<OrdersDB>, filter: OrderExportQuery, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<string> {
  let first = true;
  for await (const batch of dispatchBatches(db, filter, batchSize)) {
    const records = batch.map(dispatchCsvRecord);
    yield first ? toCsv(DISPATCH_CSV_HEADER, records) : toCsvRows(records);
    first = false;
  }
  if (first) yield toCsv(DISPATCH_CSV_HEADER, []);
}
