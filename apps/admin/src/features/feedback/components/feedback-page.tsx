// Manage Feedbacks (spec §2, §8): every contact and book message, newest first, with delete.
import { useState } from 'react';
import type { Feedback } from '@persona/contracts';
import { useAsync } from '@persona/web-kit/use-async';
import { useToast } from '@persona/web-kit/toast';
import { useConfirm } from '../../../components/confirm-dialog';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageLoading } from '../../../components/page-loading';
import { Pagination } from '../../../components/pagination';
import { usePageParam } from '../../../lib/use-page-param';
import { formatDateTime } from '../../../lib/format';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { deleteFeedback, FEEDBACK_PAGE_SIZE, listFeedback } from '../api/feedback';

export function FeedbackPage() {
  usePageTitle('Feedback');
  const [page, setPage] = usePageParam();
  const feedback = useAsync(`feedback:${page}`, (signal) => listFeedback(page, signal));
  useFailureToast(feedback.error, 'Failed to load feedbacks', 'Please try again later.');
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

  const total = feedback.status === 'success' ? feedback.data.meta.total : 0;
  return (
    <>
      <PageHeader title="Manage Feedbacks" />
      {feedback.status === 'loading' && <PageLoading text="Loading feedbacks..." />}
      {feedback.status === 'error' && <LoadError what="Feedback" error={feedback.error} onRetry={feedback.reload} />}
      {feedback.status === 'success' && feedback.data.data.length === 0 && <p className="empty-text">No feedback yet.</p>}
      {feedback.status === 'success' && feedback.data.data.length > 0 && (
        <>
          <ul className="item-list">
            {feedback.data.data.map((item) => (
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
          <Pagination page={page} pages={Math.max(1, Math.ceil(total / FEEDBACK_PAGE_SIZE))} onPage={setPage} />
        </>
      )}
    </>
  );
}
