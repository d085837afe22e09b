// Manage Feedbacks (spec §2, §8): every contact and book message, newest first, found by the
// sender's name or e-mail address, with delete.
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Feedback } from '@persona/contracts';
import { useAsync } from '@persona/web-kit/use-async';
import { useToast } from '@persona/web-kit/toast';
import { useConfirm } from '../../../components/confirm-dialog';
import { ListView } from '../../../components/list-view';
import { PageHeader } from '../../../components/page-header';
import { CursorPagination } from '../../../components/pagination';
import { SearchForm } from '../../../components/search-form';
import { countLabel, withFilter } from '../../../lib/list-place';
import { useListPlace, useStaleLinkReset } from '../../../lib/use-list-place';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { deleteFeedback, listFeedback } from '../api/feedback';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function FeedbackPage() {
  usePageTitle('Feedback');
  const [params, setParams] = useSearchParams();
  const search = (params.get('search') ?? '').slice(0, 100);
  // The dashboard's "new messages" link here with the first day they count from.
  const from = DATE.test(params.get('from') ?? '') ? params.get('from')! : '';
  const { place, go } = useListPlace();
  const feedback = useAsync(`feedback:${params.toString()}`, (signal) => listFeedback(place, { search, from }, signal));
  useFailureToast(useStaleLinkReset(feedback.error), 'Failed to load feedbacks', 'Please try again later.');
  const { toast } = useToast();
  const confirm = useConfirm();
  const [deleting, setDeleting] = useState<string | null>(null);

  async function remove(item: Feedback) {
    if (deleting) return;
    if (!(await confirm({ message: 'Are you sure you want to delete this feedback?' }))) return;
    setDeleting(item._id);
    try {
      await deleteFeedback(item._id);
      toast({ title: 'Feedback deleted successfully' });
      feedback.reload();
    } catch {
      toast({ title: 'Deletion failed', description: 'Could not delete the feedback. Try again.', variant: 'destructive' });
    } finally {
      setDeleting(null);
    }
  }

  return (
    <>
      <PageHeader title="Manage Feedbacks" />
      <div className="filters">
        <SearchForm label="Search" placeholder="Name or e-mail" value={search} onSearch={(text) => setParams(withFilter(params, 'search', text))} />
        {from && (
          <p className="filter-note">
            Received since {formatDate(from)}.{' '}
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => setParams(withFilter(params, 'from', ''))}>
              Show all messages
            </button>
          </p>
        )}
      </div>
      <ListView
        list={feedback}
        what="Feedback"
        loading="Loading feedbacks..."
        empty={search ? 'No feedback matches this search.' : from ? 'No messages since then.' : 'No feedback yet.'}
      >
        {(answer) => (
          <>
            <p className="result-count" role="status">
              {countLabel(answer.meta, 'message', 'messages')}
            </p>
            <ul className="item-list">
              {answer.data.map((item) => (
                <li key={item._id} className="item-list__item feedback-item">
                  <div>
                    <p className="item-list__title">
                      {item.name} <a href={`mailto:${item.email}`}>{item.email}</a>
                    </p>
                    <p className="feedback-item__meta">
                      <span className="badge badge--info">{item.bookId ? item.bookId.title : 'General'}</span> {formatDateTime(item.createdAt)}
                    </p>
                    <p className="feedback-item__message">{item.message}</p>
                  </div>
                  <div className="item-list__actions">
                    <button type="button" className="btn btn--danger btn--sm" onClick={() => remove(item)} disabled={deleting === item._id}>
                      Delete<span className="visually-hidden"> the message from {item.name}</span>
                    </button>
                  </div>
                </li>
              ))}
            </ul>
            <CursorPagination place={place} meta={answer.meta} onGo={go} />
          </>
        )}
      </ListView>
    </>
  );
}
