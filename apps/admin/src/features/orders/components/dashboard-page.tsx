// Admin Dashboard (spec §2): the latest orders in a table (Book, Customer, Email, Delivery, Status, Date).
import { Link } from 'react-router-dom';
import { useAsync } from '@persona/web-kit/use-async';
import { paths } from '../../../config/paths';
import { PageHeader } from '../../../components/page-header';
import { DataTable, ListView } from '../../../components/list-view';
import { capitalize, formatDate } from '../../../lib/format';
import { countText } from '../../../lib/list-place';
import { usePageTitle } from '../../../lib/use-page-title';
import { listOrders } from '../api/orders';

const RECENT = 20;

export function DashboardPage() {
  usePageTitle('Dashboard');
  const orders = useAsync('dashboard', (signal) => listOrders({ paymentStatus: 'paid', limit: RECENT }, signal));

  return (
    <>
      <PageHeader title="Admin Dashboard">
        <Link to={paths.orders} className="btn btn--outline btn--sm">
          All orders
        </Link>
      </PageHeader>
      <section aria-labelledby="recent-orders">
        <h2 id="recent-orders" className="section-title">
          Recent orders{orders.status === 'success' && orders.data.meta.total > 0 ? ` (${countText(orders.data.meta)} paid in all)` : ''}
        </h2>
        <ListView list={orders} what="Orders" loading="Loading orders..." empty="No orders have been placed yet.">
          {(answer) => (
            <DataTable caption="The latest paid orders, newest first" columns={['Book', 'Customer', 'Email', 'Delivery', 'Status', 'Date']}>
              {answer.data.map((order) => (
                <tr key={order._id}>
                  <td>{order.book.title}</td>
                  <td>{order.fullName}</td>
                  <td>{order.email}</td>
                  <td>{capitalize(order.deliveryType)}</td>
                  <td>{capitalize(order.deliveryStatus ?? 'pending')}</td>
                  <td>{formatDate(order.createdAt)}</td>
                </tr>
              ))}
            </DataTable>
          )}
        </ListView>
      </section>
    </>
  );
}
