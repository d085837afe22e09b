// A list page's states written once: loading, failed (with a retry), empty, and the list itself;
// and the table every list of rows is shown in (a caption for screen readers, a header row).
import type { ReactNode } from 'react';
import type { AsyncState } from '@persona/web-kit/use-async';
import { LoadError } from './load-error';
import { PageLoading } from './page-loading';

type Loaded<D> = AsyncState<D> & { reload: () => void };

export interface ListViewProps<D> {
  list: Loaded<D>;
  /** "Orders": named by the error ("Orders could not be loaded"). */
  what: string;
  /** The loading line: "Loading orders...". */
  loading: string;
  /** What an empty list says. */
  empty: ReactNode;
  /** Whether the loaded answer has nothing to show (default: its `data` array is empty). */
  isEmpty?: (data: D) => boolean;
  children: (data: D) => ReactNode;
}

const noRows = (data: unknown) => ((data as { data?: unknown[] }).data ?? (data as unknown[])).length === 0;

export function ListView<D>({ list, what, loading, empty, isEmpty = noRows, children }: ListViewProps<D>) {
  if (list.status === 'loading') return <PageLoading text={loading} />;
  if (list.status === 'error') return <LoadError what={what} error={list.error} onRetry={list.reload} />;
  if (isEmpty(list.data)) return <p className="empty-text">{empty}</p>;
  return <>{children(list.data)}</>;
}

export function DataTable({ caption, columns, children }: { caption: string; columns: readonly string[]; children: ReactNode }) {
  return (
    // On a phone the table scrolls sideways inside this box: focusable and named, so a keyboard can scroll it too.
    <div className="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
