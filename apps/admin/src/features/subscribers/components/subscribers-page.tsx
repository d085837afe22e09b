// Newsletter subscribers: the list, newest first, found by the beginning of an address, and subscribers.csv.
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { errorMessage } from '@persona/web-kit/api-client';
import { useAsync } from '@persona/web-kit/use-async';
import { useToast } from '@persona/web-kit/toast';
import { DataTable, ListView } from '../../../components/list-view';
import { PageHeader } from '../../../components/page-header';
import { CursorPagination } from '../../../components/pagination';
import { SearchForm } from '../../../components/search-form';
import { countLabel, withFilter } from '../../../lib/list-place';
import { useListPlace, useStaleLinkReset } from '../../../lib/use-list-place';
import { saveFile } from '../../../lib/download';
import { formatDateTime } from '../../../lib/format';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { exportSubscribers, listSubscribers } from '../api/subscribers';

export function SubscribersPage() {
  usePageTitle('Subscribers');
  const [params, setParams] = useSearchParams();
  const search = (params.get('search') ?? '').slice(0, 100);
  const { place, go } = useListPlace();
  const subscribers = useAsync(`subscribers:${params.toString()}`, (signal) => listSubscribers(place, search, signal));
  useFailureToast(useStaleLinkReset(subscribers.error), 'Failed to load subscribers');
  const { toast } = useToast();
  const [exporting, setExporting] = useState(false);
  const total = subscribers.status === 'success' ? subscribers.data.meta.total : 0;
  const anyone = total > 0 || search !== '';

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
        <button type="button" className="btn btn--primary btn--sm" onClick={download} disabled={exporting || !anyone}>
          {exporting ? 'Exporting...' : 'Export CSV'}
        </button>
      </PageHeader>
      <div className="filters">
        <SearchForm
          label="Search"
          placeholder="The beginning of an e-mail address"
          value={search}
          onSearch={(text) => setParams(withFilter(params, 'search', text))}
        />
      </div>
      <ListView
        list={subscribers}
        what="Subscribers"
        loading="Loading subscribers..."
        empty={search ? 'No subscriber’s address begins with this.' : 'No subscribers yet.'}
      >
        {(answer) => (
          <>
            <p className="result-count" role="status">
              {countLabel(answer.meta, 'subscriber', 'subscribers')}
            </p>
            <DataTable caption="Newsletter subscribers, newest first" columns={['Email', 'Subscribed']}>
              {answer.data.map((s) => (
                <tr key={s.email}>
                  <td>{s.email}</td>
                  <td>{formatDateTime(s.subscribedAt)}</td>
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
