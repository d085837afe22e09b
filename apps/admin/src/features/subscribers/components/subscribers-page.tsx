// Newsletter subscribers: the list, newest first, and subscribers.csv.
import { useState } from 'react';
import { errorMessage } from '@persona/web-kit/api-client';
import { useAsync } from '@persona/web-kit/use-async';
import { useToast } from '@persona/web-kit/toast';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageLoading } from '../../../components/page-loading';
import { Pagination } from '../../../components/pagination';
import { usePageParam } from '../../../lib/use-page-param';
import { saveFile } from '../../../lib/download';
import { formatDateTime } from '../../../lib/format';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { exportSubscribers, listSubscribers, SUBSCRIBERS_PAGE_SIZE } from '../api/subscribers';

export function SubscribersPage() {
  usePageTitle('Subscribers');
  const [page, setPage] = usePageParam();
  const subscribers = useAsync(`subscribers:${page}`, (signal) => listSubscribers(page, signal));
  useFailureToast(subscribers.error, 'Failed to load subscribers');
  const { toast } = useToast();
  const [exporting, setExporting] = useState(false);
  const total = subscribers.status === 'success' ? subscribers.data.meta.total : 0;

  async function download() {
    if (exporting) return;
    setExporting(true);
    try {
      const { blob, filename } = await exportSubscribers();
      saveFile(blob, filename ?? 'subscribers.csv');
    } catch (error) {
      toast({ title: 'Export failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  }

  return (
    <>
      <PageHeader title="Newsletter Subscribers">
        <button type="button" className="btn btn--primary btn--sm" onClick={download} disabled={exporting || total === 0}>
          {exporting ? 'Exporting...' : 'Export CSV'}
        </button>
      </PageHeader>
      {subscribers.status === 'loading' && <PageLoading text="Loading subscribers..." />}
      {subscribers.status === 'error' && <LoadError what="Subscribers" error={subscribers.error} onRetry={subscribers.reload} />}
      {subscribers.status === 'success' && subscribers.data.data.length === 0 && <p className="empty-text">No subscribers yet.</p>}
      {subscribers.status === 'success' && subscribers.data.data.length > 0 && (
        <>
          <p className="result-count">
            {total} {total === 1 ? 'subscriber' : 'subscribers'}
          </p>
          <div className="table-wrap">
            <table className="data-table">
              <caption className="visually-hidden">Newsletter subscribers, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Subscribed</th>
                </tr>
              </thead>
              <tbody>
                {subscribers.data.data.map((s) => (
                  <tr key={s.email}>
                    <td>{s.email}</td>
                    <td>{formatDateTime(s.subscribedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} pages={Math.max(1, Math.ceil(total / SUBSCRIBERS_PAGE_SIZE))} onPage={setPage} />
        </>
      )}
    </>
  );
}
