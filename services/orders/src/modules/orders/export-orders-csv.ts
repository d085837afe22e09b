// orders.csv (spec §9: S.No, Customer, Book Title, Delivery Type, Delivery Status, Order ID;
// missing values become Unknown, Untitled, N/A and pending) for every order the filters keep,
// made by the server as a stream: read in keyset batches and written as it goes, so a million
// orders take the memory of one batch (the spec's client-side export cannot hold them).
import { DISPATCH_CSV_HEADER, ORDERS_CSV_HEADER, paiseToRupees, shopDate, toCsv, toCsvRows, type CsvCell, type OrderExportQuery } from '@persona/contracts';
import type { Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import { dispatchBatches, orderBatches } from './order-list.repository';
import type { OrderRow } from '../order-records/orders.repository';
import { addressLine, shippingAddress } from '../order-records/orders.mapper';

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

/** A CSV file as chunks of text: the header with the first batch, then one chunk per batch (the header alone when there is none). */
async function* csvChunks<R>(header: readonly string[], batches: AsyncIterable<R[]>, record: (row: R) => CsvCell[]): AsyncGenerator<string> {
  let first = true;
  for await (const batch of batches) {
    const records = batch.map(record);
    yield first ? toCsv(header, records) : toCsvRows(records);
    first = false;
  }
  if (first) yield toCsv(header, []);
}

/** orders.csv (spec §9): every order the filters keep, numbered from 1, newest first. */
export function exportOrdersCsv(db: Kysely<OrdersDB>, filter: OrderExportQuery, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<string> {
  let serial = 0;
  return csvChunks(ORDERS_CSV_HEADER, orderBatches(db, filter, batchSize), (order) => orderCsvRecord(order, ++serial));
}

/**
 * A dispatch list line: what a printer and a courier need. The name and phone are the address's
 * (a gift's recipient, not the buyer who paid); the date is the payment's, in India.
 */
export function dispatchCsvRecord(order: OrderRow, links?: (personaId: string) => { interior: string; cover: string }): CsvCell[] {
  const address = shippingAddress(order);
  const paidAt = order.paid_at ?? order.created_at;
  return [
    order.persona_id,
    order.ship_by ?? '',
    address?.name ?? order.full_name,
    address?.phone ?? order.phone,
    address ? addressLine(address) : '',
    order.book_title,
    paiseToRupees(order.amount_paise).toFixed(2),
    shopDate(paidAt),
    // The print-ready files (issue 27): the interior and the cover spread, for the printer.
    ...(links ? [links(order.persona_id).interior, links(order.persona_id).cover] : ['', '']),
  ];
}

/** dispatch-list.csv: every paid printed copy the filters keep, the earliest ship-by date first, streamed like orders.csv. */
export function exportDispatchCsv(
  db: Kysely<OrdersDB>,
  filter: OrderExportQuery,
  batchSize = EXPORT_BATCH_SIZE,
  links?: (personaId: string) => { interior: string; cover: string },
): AsyncGenerator<string> {
  return csvChunks(DISPATCH_CSV_HEADER, dispatchBatches(db, filter, batchSize), (order) => dispatchCsvRecord(order, links));
}
