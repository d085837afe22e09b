import type { PageMeta } from '@persona/contracts';
import { newerPlace, olderPlace, pageLabel, type ListPlace } from '../lib/list-place';

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

/** A long list paged by the server's cursors (orders, feedback, subscribers, the audit log). Hidden on a lone page. */
export function CursorPagination({ place, meta, onGo }: { place: ListPlace; meta: PageMeta; onGo: (place: ListPlace) => void }) {
  const older = olderPlace(place, meta);
  const newer = newerPlace(place, meta);
  if (!older && !newer) return null;
  return <PagerNav label={pageLabel(place, meta)} onPrevious={newer ? () => onGo(newer) : null} onNext={older ? () => onGo(older) : null} />;
}
