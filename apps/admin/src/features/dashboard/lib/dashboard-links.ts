// Where each of the dashboard's numbers leads: the list whose total it is, filtered so
// (the order list's filters in its URL, the feedback list's first day).
import { paths } from '../../../config/paths';
import { writeFilters, type OrderFilters } from '../../../lib/order-filters';

/** The day `days` before a YYYY-MM-DD date. */
export function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

const NO_FILTERS: OrderFilters = { status: '', deliveryType: '', payment: 'paid', persona: '', from: '', to: '', search: '' };

function ordersLink(filters: Partial<OrderFilters>): string {
  const query = writeFilters({ ...NO_FILTERS, ...filters }).toString();
  return query ? `${paths.orders}?${query}` : paths.orders;
}

/** How far back the dashboard's "new messages" reach: this week (today and the six days before). */
export const NEW_MESSAGE_DAYS = 7;

export interface DashboardLinks {
  today: string;
  last7Days: string;
  last30Days: string;
  awaitingDispatch: string;
  failedPersonas: string;
  newMessages: string;
  /** The paid orders of one day (the chart's table). */
  day: (date: string) => string;
}

export function dashboardLinks(today: string): DashboardLinks {
  const since = (days: number) => ordersLink({ from: daysBefore(today, days - 1), to: today });
  return {
    today: since(1),
    last7Days: since(7),
    last30Days: since(30),
    awaitingDispatch: ordersLink({ deliveryType: 'physical', status: 'pending' }),
    failedPersonas: ordersLink({ persona: 'failed' }),
    newMessages: `${paths.feedbacks}?from=${daysBefore(today, NEW_MESSAGE_DAYS - 1)}`,
    day: (date) => ordersLink({ from: date, to: date }),
  };
}
