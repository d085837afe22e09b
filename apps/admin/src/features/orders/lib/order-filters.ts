// The Order Dashboard's filters live in the URL (?status=&deliveryType=&payment=&from=&to=&search=&page=)
// so a filtered view can be reloaded and shared; this turns them into the API's OrderQuery and back.
import { DELIVERY_STATUSES, DELIVERY_TYPES, PAYMENT_STATUSES, type OrderQuery } from '@persona/contracts';

export const ORDERS_PAGE_SIZE = 20;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface OrderFilters {
  status: string;
  deliveryType: string;
  /** Paid orders by default: abandoned checkouts are noise for fulfilment. "all" shows every order. */
  payment: string;
  from: string;
  to: string;
  search: string;
  page: number;
}

const oneOf = (value: string | null, allowed: readonly string[]) => (value && allowed.includes(value) ? value : '');

export function readFilters(params: URLSearchParams): OrderFilters {
  const payment = params.get('payment');
  const page = Number(params.get('page'));
  return {
    status: oneOf(params.get('status'), DELIVERY_STATUSES),
    deliveryType: oneOf(params.get('deliveryType'), DELIVERY_TYPES),
    payment: payment === 'all' ? 'all' : oneOf(payment, PAYMENT_STATUSES) || 'paid',
    from: DATE.test(params.get('from') ?? '') ? params.get('from')! : '',
    to: DATE.test(params.get('to') ?? '') ? params.get('to')! : '',
    search: (params.get('search') ?? '').slice(0, 100),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** Only what differs from the defaults goes into the URL. */
export function writeFilters(filters: OrderFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.deliveryType) params.set('deliveryType', filters.deliveryType);
  if (filters.payment !== 'paid') params.set('payment', filters.payment);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.page > 1) params.set('page', String(filters.page));
  return params;
}

export function toOrderQuery(filters: OrderFilters): OrderQuery {
  const query: OrderQuery = { page: filters.page, limit: ORDERS_PAGE_SIZE };
  if (filters.status) query.status = filters.status as OrderQuery['status'];
  if (filters.deliveryType) query.deliveryType = filters.deliveryType as OrderQuery['deliveryType'];
  if (filters.payment !== 'all') query.paymentStatus = filters.payment as OrderQuery['paymentStatus'];
  if (filters.from) query.from = filters.from;
  if (filters.to) query.to = filters.to;
  if (filters.search.trim()) query.search = filters.search.trim();
  return query;
}

export function pageCount(total: number, limit = ORDERS_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / limit));
}
