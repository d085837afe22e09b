// Manage Feedbacks (spec §2, §8): every contact and book message, newest first, found by the
// sender's name or e-mail address; the page opens on those still waiting (issue 24). Each can be
// marked handled (who and when shown), answered by e-mail through the shop's mail, or deleted.
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { FEEDBACK_ANSWER_MAX_CHARS, type Feedback } from '@persona/contracts';
import { errorMessage } from '@persona/web-kit/api-client';
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
import { answerFeedback, deleteFeedback, listFeedback, markFeedbackHandled } from '../api/feedback';
import { emptyText, FEEDBACK_VIEWS, readFeedbackView, stateQuery, viewParam } from '../lib/feedback-view';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function FeedbackPage() {
  usePageTitle('Feedback');
  const [params, setParams] = useSearchParams();
  const search = (params.get('search') ?? '').slice(0, 100);
  // The dashboard's "new messages" link here with the first day they count from.
  const from = DATE.test(params.get('from') ?? '') ? params.get('from')! : '';
  const view = readFeedbackView(params.get('state'));
  const { place, go } = useListPlace();
  const feedback = useAsync(`feedback:${params.toString()}`, (signal) => listFeedback(place, { search, from, state: stateQuery(view) }, signal));
  useFailureToast(useStaleLinkReset(feedback.error), 'Failed to load feedbacks', 'Please try again later.');
  const { toast } = useToast();
  const confirm = useConfirm();
  const [deleting, setDeleting] = useState<string | null>(null);
  const [marking, setMarking] = useState<string | null>(null);
  const [answering, setAnswering] = useState<string | null>(null);

  async function mark(item: Feedback, handled: boolean) {
    if (marking) return;
    setMarking(item._id);
    try {
      await markFeedbackHandled(item._id, handled);
      toast({ title: handled ? 'Marked as handled' : 'Marked as waiting' });
      feedback.reload();
    } catch (error) {
      toast({ title: 'Could not change the message', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setMarking(null);
    }
  }

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
        <div className="view-switch" role="group" aria-label="Show">
          {FEEDBACK_VIEWS.map((option) => (
            <button
              key={option.view}
              type="button"
              className="btn btn--sm view-switch__option"
              aria-pressed={view === option.view}
              onClick={() => setParams(withFilter(params, 'state', viewParam(option.view)))}
            >
              {option.label}
            </button>
          ))}
        </div>
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
      <ListView list={feedback} what="Feedback" loading="Loading feedbacks..." empty={emptyText(view, { search, from })}>
        {(answer) => (
          <>
            <p className="result-count" role="status">
              {countLabel(answer.meta, 'message', 'messages')}
            </p>
            <ul className="item-list">
              {answer.data.map((item) => (
                <li key={item._id} className={`item-list__item feedback-item${item.handled ? ' feedback-item--handled' : ''}`}>
                  <div className="feedback-item__body">
                    <p className="item-list__title">
                      {item.name} <a href={`mailto:${item.email}`}>{item.email}</a>
                    </p>
                    <p className="feedback-item__meta">
                      <span className="badge badge--info">{item.bookId ? item.bookId.title : 'General'}</span> {formatDateTime(item.createdAt)}
                    </p>
                    <p className="feedback-item__message">{item.message}</p>
                    <FeedbackState item={item} />
                    {answering === item._id && (
                      <AnswerForm
                        item={item}
                        onCancel={() => setAnswering(null)}
                        onSent={(message) => {
                          setAnswering(null);
                          toast({ title: 'Answer sent', description: message });
                          feedback.reload();
                        }}
                      />
                    )}
                  </div>
                  <div className="item-list__actions">
                    {!item.answer && answering !== item._id && (
                      <button type="button" className="btn btn--primary btn--sm" onClick={() => setAnswering(item._id)}>
                        Answer by e-mail<span className="visually-hidden"> to {item.name}</span>
                      </button>
                    )}
                    <button type="button" className="btn btn--outline btn--sm" onClick={() => mark(item, !item.handled)} disabled={marking === item._id}>
                      {item.handled ? 'Mark as waiting' : 'Mark as handled'}
                      <span className="visually-hidden"> the message from {item.name}</span>
                    </button>
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

/** Whether the message was dealt with, by whom and when, and the answer sent. */
function FeedbackState({ item }: { item: Feedback }) {
  if (!item.handled && !item.answer) return <p className="feedback-item__state">Waiting</p>;
  return (
    <div className="feedback-item__state">
      {item.handled && (
        <p>
          <span className="badge badge--success">Handled</span> by {item.handled.by} on {formatDateTime(item.handled.at)}
        </p>
      )}
      {item.answer && (
        <div className="feedback-item__answer">
          <p className="feedback-item__answer-meta">
            Answered by e-mail by {item.answer.by} on {formatDateTime(item.answer.at)}:
          </p>
          <p className="feedback-item__message">{item.answer.text}</p>
        </div>
      )}
    </div>
  );
}

/** The answer, e-mailed to the sender from the shop; the message is then handled. */
function AnswerForm({ item, onCancel, onSent }: { item: Feedback; onCancel: () => void; onSent: (message: string) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    if (!text.trim()) {
      setProblem('Write your answer first');
      return;
    }
    setSending(true);
    setProblem(null);
    try {
      onSent((await answerFeedback(item._id, text)).message);
    } catch (error) {
      setProblem(errorMessage(error));
      setSending(false);
    }
  }

  return (
    <form className="feedback-answer" onSubmit={send} noValidate>
      <div className="field">
        <label htmlFor={id}>
          Your answer to {item.name} ({item.email})
        </label>
        <textarea
          id={id}
          value={text}
          rows={5}
          maxLength={FEEDBACK_ANSWER_MAX_CHARS}
          autoFocus
          aria-invalid={problem ? 'true' : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => setText(event.target.value)}
        />
        {problem && (
          <p id={`${id}-problem`} className="feedback-answer__problem" role="alert">
            {problem}
          </p>
        )}
      </div>
      <p className="feedback-answer__note">It is e-mailed from the shop, with their message quoted, and the message is marked handled.</p>
      <div className="feedback-answer__actions">
        <button type="submit" className="btn btn--primary btn--sm" disabled={sending}>
          {sending ? 'Sending...' : 'Send answer'}
        </button>
        <button type="button" className="btn btn--ghost btn--sm" onClick={onCancel} disabled={sending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
