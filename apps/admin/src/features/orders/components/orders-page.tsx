// Order Dashboard (spec §2, §4, §8, §9): filters, search, pages (by cursor, however many orders),
// a printed copy's delivery status dropdown (disabled while its update is in flight; "Shipped"
// asks for the carrier and tracking number; a digital order has none), the Persona's state with a
// Retry, the CSV export and the dispatch list (both made by the server from the filters). Filtered
// to printed copies still pending it is the dispatch list: sorted by ship-by date, earliest first,
// each with whom the courier delivers to (the address's name and phone: a gift's recipient).
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  DELIVERY_STATUSES,
  DISPATCH_CSV_FILENAME,
  ORDERS_CSV_FILENAME,
  PAYMENT_STATUSES,
  PERSONA_STATUSES,
  type DeliveryStatus,
  type Order,
} from '@persona/contracts';
import { errorMessage } from '@persona/web-kit/api-client';
import { useAsync } from '@persona/web-kit/use-async';
import { useToast } from '@persona/web-kit/toast';
import { PageHeader } from '../../../components/page-header';
import { paths } from '../../../config/paths';
import { DataTable, ListView } from '../../../components/list-view';
import { CursorPagination } from '../../../components/pagination';
import { SearchForm } from '../../../components/search-form';
import { saveFile } from '../../../lib/download';
import { countLabel, placeQuery } from '../../../lib/list-place';
import { useListPlace, useStaleLinkReset } from '../../../lib/use-list-place';
import { capitalize, formatDate, formatDateTime, formatInr } from '../../../lib/format';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { exportDispatchList, exportOrders, listOrders, retryPersona, updateDeliveryStatus } from '../api/orders';
import { ORDERS_PAGE_SIZE, readFilters, toOrderFilters, writeFilters, type OrderFilters } from '../../../lib/order-filters';
import { PaymentBadge, PersonaBadge } from './order-badges';
import { ShipDialog, type ShipmentInput } from './ship-dialog';
import { addressLine } from '../lib/address-line';

export function OrdersPage() {
  usePageTitle('Orders');
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const { place, go } = useListPlace();
  const query = { ...toOrderFilters(filters), ...placeQuery(place, ORDERS_PAGE_SIZE) };
  const orders = useAsync(JSON.stringify(query), (signal) => listOrders(query, signal));
  useFailureToast(useStaleLinkReset(orders.error), 'Failed to fetch orders', 'Something went wrong.');
  const { toast } = useToast();
  const [changed, setChanged] = useState<Record<string, Order>>({});
  const [inFlight, setInFlight] = useState<Record<string, boolean>>({});
  const [exporting, setExporting] = useState<'orders' | 'dispatch' | null>(null);
  const [shipping, setShipping] = useState<Order | null>(null);
  const ids = { status: useId(), type: useId(), payment: useId(), persona: useId(), from: useId(), to: useId() };

  // A fresh answer from the server replaces the rows this page changed locally.
  useEffect(() => setChanged({}), [orders.data]);

  // A new filter starts again at the first page. Two changes in quick succession build on each
  // other: the router applies a change as a transition, so the second may come before the render
  // that shows the first.
  const written = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    written.current = null;
  }, [params]);
  const setFilters = (next: Partial<OrderFilters>) => {
    written.current = writeFilters({ ...readFilters(written.current ?? params), ...next });
    setParams(written.current);
  };
  const rows = orders.status === 'success' ? orders.data.data.map((order) => changed[order._id] ?? order) : [];
  const dispatchList = filters.deliveryType === 'physical' && filters.status === 'pending';
  const total = orders.status === 'success' ? orders.data.meta.total : 0;

  async function changeStatus(order: Order, deliveryStatus: DeliveryStatus, shipment: ShipmentInput = {}) {
    if (inFlight[order._id]) return;
    setInFlight((m) => ({ ...m, [order._id]: true }));
    try {
      const updated = await updateDeliveryStatus(order._id, { deliveryStatus, ...shipment });
      setChanged((m) => ({ ...m, [order._id]: updated }));
      toast({ title: 'Delivery status updated' });
    } catch {
      toast({ title: 'Update failed', description: 'Could not update delivery status. Try again.', variant: 'destructive' });
    } finally {
      setInFlight((m) => ({ ...m, [order._id]: false }));
    }
  }

  async function retry(order: Order) {
    if (inFlight[order._id]) return;
    setInFlight((m) => ({ ...m, [order._id]: true }));
    try {
      const updated = await retryPersona(order._id);
      setChanged((m) => ({ ...m, [order._id]: updated }));
      toast({ title: 'Persona retry started', description: `The Persona ${order.personaId} is being made again.` });
    } catch (error) {
      toast({ title: 'Retry failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setInFlight((m) => ({ ...m, [order._id]: false }));
    }
  }

  async function exportCsv(which: 'orders' | 'dispatch') {
    if (exporting || total === 0) return;
    setExporting(which);
    try {
      const { blob, filename } = which === 'orders' ? await exportOrders(toOrderFilters(filters)) : await exportDispatchList(toOrderFilters(filters));
      saveFile(blob, filename ?? (which === 'orders' ? ORDERS_CSV_FILENAME : DISPATCH_CSV_FILENAME));
    } catch (error) {
      toast({ title: 'Export failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setExporting(null);
    }
  }

  return (
    <>
      <PageHeader title="Order Dashboard">
        <button type="button" className="btn btn--outline btn--sm" onClick={orders.reload}>
          Refresh
        </button>
        <button
          type="button"
          className="btn btn--outline btn--sm"
          onClick={() => exportCsv('dispatch')}
          disabled={exporting !== null || total === 0}
          title="Paid printed copies: what a printer and a courier need"
        >
          {exporting === 'dispatch' ? 'Exporting...' : 'Dispatch list'}
        </button>
        <button type="button" className="btn btn--primary btn--sm" onClick={() => exportCsv('orders')} disabled={exporting !== null || total === 0}>
          {exporting === 'orders' ? 'Exporting...' : 'Export CSV'}
        </button>
      </PageHeader>

      <div className="filters">
        <SearchForm label="Search" placeholder="Name, e-mail or Persona ID" value={filters.search} onSearch={(search) => setFilters({ search })} />
        <div className="field field--inline">
          <label htmlFor={ids.status}>Delivery status</label>
          <select id={ids.status} value={filters.status} onChange={(e) => setFilters({ status: e.target.value })}>
            <option value="">All</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {capitalize(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="field field--inline">
          <label htmlFor={ids.type}>Delivery type</label>
          <select id={ids.type} value={filters.deliveryType} onChange={(e) => setFilters({ deliveryType: e.target.value })}>
            <option value="">All</option>
            <option value="digital">Digital</option>
            <option value="physical">Physical</option>
          </select>
        </div>
        <div className="field field--inline">
          <label htmlFor={ids.payment}>Payment</label>
          <select id={ids.payment} value={filters.payment} onChange={(e) => setFilters({ payment: e.target.value })}>
            <option value="all">All</option>
            {PAYMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {capitalize(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="field field--inline">
          <label htmlFor={ids.persona}>Persona</label>
          <select id={ids.persona} value={filters.persona} onChange={(e) => setFilters({ persona: e.target.value })}>
            <option value="">All</option>
            {PERSONA_STATUSES.map((s) => (
              <option key={s} value={s}>
                {capitalize(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="field field--inline">
          <label htmlFor={ids.from}>From</label>
          <input id={ids.from} type="date" value={filters.from} max={filters.to || undefined} onChange={(e) => setFilters({ from: e.target.value })} />
        </div>
        <div className="field field--inline">
          <label htmlFor={ids.to}>To</label>
          <input id={ids.to} type="date" value={filters.to} min={filters.from || undefined} onChange={(e) => setFilters({ to: e.target.value })} />
        </div>
      </div>

      <ListView list={orders} what="Orders" loading="Loading orders..." empty="No orders match these filters.">
        {(answer) => (
          <>
            <p className="result-count" role="status">
              {countLabel(answer.meta, 'order', 'orders')}
            </p>
            <DataTable
              caption={dispatchList ? 'Printed copies to send, earliest ship-by date first' : 'Orders, newest first'}
              columns={['Persona ID', 'Book', 'Customer', 'Delivery', 'Amount', 'Payment', 'Persona', 'Delivery status', 'Date']}
            >
              {rows.map((order) => (
                <tr key={order._id} data-order-id={order._id}>
                  <td className="mono">
                    <Link to={paths.order(order._id)}>{order.personaId}</Link>
                  </td>
                  <td>
                    {order.book.title}
                    <span className="cell-sub">{order.book.author}</span>
                  </td>
                  <td>
                    {order.fullName}
                    <span className="cell-sub">{order.email}</span>
                    <span className="cell-sub">{order.phone}</span>
                    {order.gift && (
                      <span className="cell-sub">
                        Gift for {order.gift.recipientName}
                        {order.gift.recipientEmail ? ` (${order.gift.recipientEmail}, ${order.gift.deliverOn})` : ''}
                      </span>
                    )}
                  </td>
                  <td>
                    {capitalize(order.deliveryType)}
                    {order.shipBy && order.deliveryStatus === 'pending' && <strong className="cell-sub">Ship by {formatDate(order.shipBy)}</strong>}
                    {order.address && (
                      <>
                        <span className="cell-sub">To {order.address.name}</span>
                        {order.address.phone && <span className="cell-sub">{order.address.phone}</span>}
                        <span className="cell-sub">{addressLine(order.address)}</span>
                      </>
                    )}
                  </td>
                  <td>{formatInr(order.amount)}</td>
                  <td>
                    <PaymentBadge status={order.paymentStatus} />
                  </td>
                  <td>
                    <PersonaBadge status={order.personaStatus} />
                    {order.personaStatus === 'failed' && (
                      <>
                        {order.personaError && <span className="cell-sub">{order.personaError}</span>}
                        <button type="button" className="btn btn--outline btn--xs" onClick={() => retry(order)} disabled={inFlight[order._id]}>
                          Retry<span className="visually-hidden"> the Persona {order.personaId}</span>
                        </button>
                      </>
                    )}
                  </td>
                  <td>
                    {order.deliveryType === 'physical' ? (
                      <>
                        <label className="visually-hidden" htmlFor={`status-${order._id}`}>
                          Delivery status of {order.personaId}
                        </label>
                        <select
                          id={`status-${order._id}`}
                          value={order.deliveryStatus ?? 'pending'}
                          disabled={inFlight[order._id] === true}
                          onChange={(e) => {
                            const next = e.target.value as DeliveryStatus;
                            if (next === 'shipped') setShipping(order);
                            else void changeStatus(order, next);
                          }}
                        >
                          {DELIVERY_STATUSES.map((s) => (
                            <option key={s} value={s}>
                              {capitalize(s)}
                            </option>
                          ))}
                        </select>
                        {order.shipment && (
                          <span className="cell-sub">{[order.shipment.carrier, order.shipment.trackingNumber].filter(Boolean).join(' · ') || 'Shipped'}</span>
                        )}
                      </>
                    ) : (
                      <span className="cell-sub">Digital: no delivery</span>
                    )}
                  </td>
                  <td>{formatDateTime(order.createdAt)}</td>
                </tr>
              ))}
            </DataTable>
            <CursorPagination place={place} meta={answer.meta} onGo={go} jump />
          </>
        )}
      </ListView>
      <ShipDialog
        order={shipping}
        onCancel={() => setShipping(null)}
        onShip={(order, shipment) => {
          setShipping(null);
          void changeStatus(order, 'shipped', shipment);
        }}
      />
    </>
  );
}
