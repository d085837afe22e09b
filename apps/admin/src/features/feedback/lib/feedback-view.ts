// Which messages the feedback page shows: those still waiting first (the page opens on them), those
// dealt with, or all; kept in the address (?state=) so a reload or a shared link shows the same.
import { FEEDBACK_STATES, type FeedbackState } from '@persona/contracts';

export type FeedbackView = FeedbackState | 'all';

export const FEEDBACK_VIEWS: ReadonlyArray<{ view: FeedbackView; label: string }> = [
  { view: 'unhandled', label: 'Waiting' },
  { view: 'handled', label: 'Handled' },
  { view: 'all', label: 'All' },
];

/** The view a `?state=` asks for: absent or unknown, the messages still waiting. */
export function readFeedbackView(state: string | null): FeedbackView {
  if (state === 'all') return 'all';
  return (FEEDBACK_STATES as readonly string[]).includes(state ?? '') ? (state as FeedbackState) : 'unhandled';
}

/** What the list asks the server for: a state, or none for all. */
export function stateQuery(view: FeedbackView): FeedbackState | undefined {
  return view === 'all' ? undefined : view;
}

/** The address's value for a view: the default (waiting) needs none. */
export function viewParam(view: FeedbackView): string {
  return view === 'unhandled' ? '' : view;
}

/** What an empty list says, for the view and the filters in use. */
export function emptyText(view: FeedbackView, filters: { search: string; from: string }): string {
  if (filters.search) return 'No feedback matches this search.';
  if (filters.from) return 'No messages since then.';
  if (view === 'unhandled') return 'Nothing is waiting: every message has been handled.';
  if (view === 'handled') return 'No message has been handled yet.';
  return 'No feedback yet.';
}
