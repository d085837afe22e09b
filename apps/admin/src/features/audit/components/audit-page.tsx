// The audit log: what happened in the shop, newest first (book and category changes, paid orders,
// Personas made or failed, delivery changes, logins), filterable by kind.
import { useId } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAsync } from '@persona/web-kit/use-async';
import { DataTable, ListView } from '../../../components/list-view';
import { PageHeader } from '../../../components/page-header';
import { CursorPagination } from '../../../components/pagination';
import { withFilter } from '../../../lib/list-place';
import { useListPlace, useStaleLinkReset } from '../../../lib/use-list-place';
import { formatDateTime } from '../../../lib/format';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { listAudit } from '../api/audit';

const KINDS: ReadonlyArray<[string, string]> = [
  ['', 'Everything'],
  ['book.created', 'Books created'],
  ['book.updated', 'Books updated'],
  ['book.deleted', 'Books deleted'],
  ['category.created', 'Categories created'],
  ['category.updated', 'Categories updated'],
  ['category.deleted', 'Categories deleted'],
  ['order.paid', 'Orders paid'],
  ['order.delivery_status_changed', 'Delivery status changes'],
  ['persona.ready', 'Personas made'],
  ['persona.failed', 'Personas failed'],
  ['persona.retry_requested', 'Personas retried'],
  ['feedback.deleted', 'Messages deleted'],
  ['admin.logged_in', 'Logins'],
];

export function AuditPage() {
  usePageTitle('Audit log');
  const [params, setParams] = useSearchParams();
  const { place, go } = useListPlace();
  const type = KINDS.some(([value]) => value === params.get('type')) ? (params.get('type') ?? '') : '';
  const entries = useAsync(`audit:${params.toString()}`, (signal) => listAudit(place, type, signal));
  useFailureToast(useStaleLinkReset(entries.error), 'Failed to load the audit log');
  const selectId = useId();

  return (
    <>
      <PageHeader title="Audit Log">
        <button type="button" className="btn btn--outline btn--sm" onClick={entries.reload}>
          Refresh
        </button>
      </PageHeader>
      <div className="filters">
        <div className="field field--inline">
          <label htmlFor={selectId}>Show</label>
          <select id={selectId} value={type} onChange={(e) => setParams(withFilter(params, 'type', e.target.value))}>
            {KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ListView list={entries} what="The audit log" loading="Loading the audit log..." empty="Nothing recorded yet.">
        {(answer) => (
          <>
            <DataTable caption="Audit log, newest first" columns={['When', 'What', 'Who']}>
              {answer.data.map((entry) => (
                <tr key={entry._id}>
                  <td className="nowrap">{formatDateTime(entry.occurredAt)}</td>
                  <td>
                    {entry.summary}
                    <span className="cell-sub mono">{entry.type}</span>
                  </td>
                  <td>{entry.actor ?? 'The shop'}</td>
                </tr>
              ))}
            </DataTable>
            <CursorPagination place={place} meta={answer.meta} onGo={go} />
          </>
        )}
      </ListView>
    </>
  );
}
