// The Order Dashboard's filters live in the URL (?status=&deliveryType=&payment=&persona=&from=&to=&search=)
// beside the list's place (list-place.ts), so a filtered view can be reloaded and shared; this
// turns them into the API's filters (the list's and the export's) and back.
import { DELIVERY_STATUSES, DELIVERY_TYPES, PAYMENT_STATUSES, PERSONA_STATUSES, type OrderExportQuery } from '@persona/contracts';

export const ORDERS_PAGE_SIZE = 20;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface OrderFilters {
  status: string;
  deliveryType: string;
  /** Paid orders by default: abandoned checkouts are noise for fulfilment. "all" shows every order. */
  payment: string;
  /** The Persona's state (the dashboard links its failed Personas here). */
  persona: string;
  from: string;
  to: string;
  search: string;
}

const oneOf = (value: string | null, allowed: readonly string[]) => (value && allowed.includes(value) ? value : '');

export function readFilters(params: URLSearchParams): OrderFilters {
  const payment = params.get('payment');
  return {
    status: oneOf(params.get('status'), DELIVERY_STATUSES),
    deliveryType: oneOf(params.get('deliveryType'), DELIVERY_TYPES),
    payment: payment === 'all' ? 'all' : oneOf(payment, PAYMENT_STATUSES) || 'paid',
    persona: oneOf(params.get('persona'), PERSONA_STATUSES),
    from: DATE.test(params.get('from') ?? '') ? params.get('from')! : '',
    to: DATE.test(params.get('to') ?? '') ? params.get('to')! : '',
    search: (params.get('search') ?? '').slice(0, 100),
  };
}

/** Only what differs from the defaults goes into the URL. */
export function writeFilters(filters: OrderFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.deliveryType) params.set('deliveryType', filters.deliveryType);
  if (filters.payment !== 'paid') params.set('payment', filters.payment);
  if (filters.persona) params.set('persona', filters.persona);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.search.trim()) params.set('search', filters.search.trim());
  return params;
}

/** The API's filters: the list's (with a place) and the export's. */
export function toOrderFilters(filters: OrderFilters): OrderExportQuery {
  const query: OrderExportQuery = {};
  if (filters.status) query.status = filters.status as OrderExportQuery['status'];
  if (filters.deliveryType) query.deliveryType = filters.deliveryType as OrderExportQuery['deliveryType'];
  if (filters.payment !== 'all') query.paymentStatus = filters.payment as OrderExportQuery['paymentStatus'];
  if (filters.persona) query.personaStatus = filters.persona as OrderExportQuery['personaStatus'];
  if (filters.from) query.from = filters.from;
  if (filters.to) query.to = filters.to;
  if (filters.search.trim()) query.search = filters.search.trim();
  return query;
}
