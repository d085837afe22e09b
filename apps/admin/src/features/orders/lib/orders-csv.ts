// The orders export of spec §9: orders.csv with S.No, Customer, Book Title, Delivery Type,
// Delivery Status, Order ID; missing values become Unknown, Untitled, N/A and pending.
import { toCsv, type Order } from '@persona/contracts';

export const ORDERS_CSV_FILENAME = 'orders.csv';
export const ORDERS_CSV_HEADER = ['S.No', 'Customer', 'Book Title', 'Delivery Type', 'Delivery Status', 'Order ID'] as const;

type ExportableOrder = Pick<Order, '_id' | 'fullName' | 'deliveryType' | 'deliveryStatus'> & { book: Pick<Order['book'], 'title'> | null };

const orBlank = (value: string | null | undefined, fallback: string) => (value && value.trim() ? value : fallback);

export function ordersCsv(orders: ReadonlyArray<Partial<ExportableOrder>>): string {
  return toCsv(
    ORDERS_CSV_HEADER,
    orders.map((order, index) => [
      index + 1,
      orBlank(order.fullName, 'Unknown'),
      orBlank(order.book?.title, 'Untitled'),
      orBlank(order.deliveryType, 'N/A'),
      orBlank(order.deliveryStatus, 'pending'),
      orBlank(order._id, 'N/A'),
    ]),
  );
}
