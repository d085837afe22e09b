import type { PageMeta } from '@persona/contracts';
import { useId, useState } from 'react';
import { jumpPlace, newerPlace, olderPlace, pageCount, pageLabel, type ListPlace } from '../lib/list-place';

/** Previous / "Page X of N" / Next. */
function PagerNav({ label, onPrevious, onNext }: { label: string; onPrevious: (() => void) | null; onNext: (() => void) | null }) {
  return (
    <nav className="pagination" aria-label="Pages">
      <button type="button" className="btn btn--outline btn--sm" onClick={() => onPrevious?.()} disabled={!onPrevious}>
        Previous
      </button>
      <span aria-current="page">{label}</span>
      <button type="button" className="btn btn--outline btn--sm" onClick={() => onNext?.()} disabled={!onNext}>
        Next
      </button>
    </nav>
  );
}

/** A list paged by number (the books). Hidden when everything fits on one page. */
export function Pagination({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <PagerNav label={`Page ${page} of ${pages}`} onPrevious={page > 1 ? () => onPage(page - 1) : null} onNext={page < pages ? () => onPage(page + 1) : null} />
  );
}

/** "Go to page N": a page number typed in, offered only where the list is counted to its end. */
function PageJump({ meta, onGo }: { meta: PageMeta; onGo: (place: ListPlace) => void }) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const target = jumpPlace(typed, meta);
  return (
    <form
      className="pagination__jump"
      onSubmit={(event) => {
        event.preventDefault();
        if (!target) return;
        setTyped('');
        onGo(target);
      }}
    >
      <label htmlFor={id}>Go to page</label>
      <input id={id} type="number" inputMode="numeric" min={1} max={pageCount(meta)} value={typed} onChange={(event) => setTyped(event.target.value)} />
      <button type="submit" className="btn btn--outline btn--sm" disabled={!target}>
        Go
      </button>
    </form>
  );
}

/**
 * A long list paged by the server's cursors (orders, feedback, subscribers, the audit log). Hidden
 * on a lone page. `jump`: a page number may be typed in too (a list whose server finds any page fast).
 */
export function CursorPagination({ place, meta, onGo, jump = false }: { place: ListPlace; meta: PageMeta; onGo: (place: ListPlace) => void; jump?: boolean }) {
  const older = olderPlace(place, meta);
  const newer = newerPlace(place, meta);
  if (!older && !newer) return null;
  return (
    <div className="pagination-bar">
      <PagerNav label={pageLabel(place, meta)} onPrevious={newer ? () => onGo(newer) : null} onNext={older ? () => onGo(older) : null} />
      {jump && !meta.totalCapped && pageCount(meta) > 2 ? <PageJump meta={meta} onGo={onGo} /> : null}
    </div>
  );
}
