// Admin Dashboard (spec §2): first, why the shop takes no live payments when it refuses them
// (issue 24: PUBLIC_URL local); the shop's numbers (sales today, this week and this month,
// the work waiting: printed copies to dispatch, failed Personas, new messages), each a link to
// the list it totals; revenue per day; then the latest orders in a table (Book, Customer, Email,
// Delivery, Status, Date).
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Order, OrderSummary } from '@persona/contracts';
import { useAsync } from '@persona/web-kit/use-async';
import { paths } from '../../../config/paths';
import { PageHeader } from '../../../components/page-header';
import { DataTable, ListView } from '../../../components/list-view';
import { LoadError } from '../../../components/load-error';
import { PageLoading } from '../../../components/page-loading';
import { capitalize, formatDate, formatRupees } from '../../../lib/format';
import { countText } from '../../../lib/list-place';
import { usePageTitle } from '../../../lib/use-page-title';
import { getOrderSummary, messagesSince, recentPaidOrders } from '../api/dashboard';
import { daysBefore, dashboardLinks, NEW_MESSAGE_DAYS } from '../lib/dashboard-links';
import { SalesChart } from './sales-chart';

const RECENT = 20;

/** One of the latest orders; its book opens the order's page. */
export function RecentOrderRow({
  order,
}: {
  order: Pick<Order, '_id' | 'book' | 'fullName' | 'email' | 'deliveryType' | 'deliveryStatus' | 'personaStatus' | 'createdAt'>;
}) {
  return (
    <tr data-order-id={order._id}>
      <td>
        <Link to={paths.order(order._id)}>{order.book.title}</Link>
      </td>
      <td>{order.fullName}</td>
      <td>{order.email}</td>
      <td>{capitalize(order.deliveryType)}</td>
      {/* A digital copy has no delivery: its status is its Persona's. */}
      <td>{order.deliveryType === 'physical' ? capitalize(order.deliveryStatus) : `Persona ${order.personaStatus}`}</td>
      <td>{formatDate(order.createdAt)}</td>
    </tr>
  );
}

const ordersText = (n: number) => `${n.toLocaleString('en-IN')} paid ${n === 1 ? 'order' : 'orders'}`;

function Stat({ to, label, value, note, tone }: { to: string; label: string; value: ReactNode; note: string; tone?: 'alert' }) {
  return (
    <li>
      <Link to={to} className={`stat${tone ? ` stat--${tone}` : ''}`}>
        <span className="stat__label">{label}</span>
        <span className="stat__value">{value}</span>
        <span className="stat__note">{note}</span>
      </Link>
    </li>
  );
}

/**
 * Paid orders whose Persona could not be made (issue 22): a buyer who paid and has nothing yet, so
 * the tile stands out until none is left; it leads to those orders, where Retry is.
 */
export function FailedPersonasStat({ count, to }: { count: number; to: string }) {
  return (
    <Stat
      to={to}
      label="Failed Personas"
      value={count.toLocaleString('en-IN')}
      note={count === 0 ? 'None to retry' : 'Paid, not made: open to retry'}
      tone={count > 0 ? 'alert' : undefined}
    />
  );
}

/**
 * Why the shop refuses live payments (the orders service's reason: PUBLIC_URL unset or local, so
 * every copy sold would print an address buyers cannot reach), above everything until put right.
 */
export function LivePaymentsRefused({ reason }: { reason: string | null }) {
  if (!reason) return null;
  return (
    <div className="dashboard-warning" role="alert">
      <p className="dashboard-warning__title">The shop cannot take payments</p>
      <p>{reason}</p>
    </div>
  );
}

function Numbers({ summary, messages }: { summary: OrderSummary; messages: ReturnType<typeof useMessages> }) {
  const links = dashboardLinks(summary.today);
  const { sales } = summary;
  return (
    <>
      <LivePaymentsRefused reason={summary.livePaymentsRefused} />
      <ul className="stat-grid" aria-label="The shop's numbers">
        <Stat to={links.today} label="Today" value={formatRupees(sales.today.revenue)} note={ordersText(sales.today.orders)} />
        <Stat to={links.last7Days} label="Last 7 days" value={formatRupees(sales.last7Days.revenue)} note={ordersText(sales.last7Days.orders)} />
        <Stat to={links.last30Days} label="Last 30 days" value={formatRupees(sales.last30Days.revenue)} note={ordersText(sales.last30Days.orders)} />
        <Stat
          to={links.awaitingDispatch}
          label="Printed copies to dispatch"
          value={summary.awaitingDispatch.toLocaleString('en-IN')}
          note={summary.awaitingDispatch === 0 ? 'All dispatched' : 'Paid, not yet shipped'}
        />
        <FailedPersonasStat count={summary.failedPersonas} to={links.failedPersonas} />
        <Stat
          to={links.newMessages}
          label="New messages"
          value={messages.status === 'success' ? countText(messages.data.meta) : messages.status === 'loading' ? '…' : '—'}
          note={messages.status === 'error' ? 'Could not be counted' : `Since ${formatDate(daysBefore(summary.today, NEW_MESSAGE_DAYS - 1))}`}
        />
      </ul>
      <section className="panel dashboard-chart">
        <SalesChart days={summary.days} dayLink={links.day} />
      </section>
    </>
  );
}

function useMessages(today: string | undefined) {
  return useAsync(`dashboard:messages:${today ?? ''}`, (signal) =>
    today ? messagesSince(daysBefore(today, NEW_MESSAGE_DAYS - 1), signal) : new Promise<never>(() => {}),
  );
}

export function DashboardPage() {
  usePageTitle('Dashboard');
  const summary = useAsync('dashboard:summary', getOrderSummary);
  // The messages are counted from the shop's today, which the summary answers.
  const messages = useMessages(summary.data?.today);
  const orders = useAsync('dashboard', (signal) => recentPaidOrders(RECENT, signal));

  return (
    <>
      <PageHeader title="Admin Dashboard">
        <Link to={paths.orders} className="btn btn--outline btn--sm">
          All orders
        </Link>
      </PageHeader>
      <section aria-labelledby="shop-numbers" className="dashboard-numbers">
        <h2 id="shop-numbers" className="visually-hidden">
          The shop in numbers
        </h2>
        {summary.status === 'loading' && <PageLoading text="Loading the numbers..." />}
        {summary.status === 'error' && <LoadError what="The numbers" error={summary.error} onRetry={summary.reload} />}
        {summary.status === 'success' && <Numbers summary={summary.data} messages={messages} />}
      </section>
      <section aria-labelledby="recent-orders">
        <h2 id="recent-orders" className="section-title">
          Recent orders{orders.status === 'success' && orders.data.meta.total > 0 ? ` (${countText(orders.data.meta)} paid in all)` : ''}
        </h2>
        <ListView list={orders} what="Orders" loading="Loading orders..." empty="No orders have been placed yet.">
          {(answer) => (
            <DataTable caption="The latest paid orders, newest first" columns={['Book', 'Customer', 'Email', 'Delivery', 'Status', 'Date']}>
              {answer.data.map((order) => (
                <RecentOrderRow key={order._id} order={order} />
              ))}
            </DataTable>
          )}
        </ListView>
      </section>
    </>
  );
}
