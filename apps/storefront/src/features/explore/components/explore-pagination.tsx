// Numbered pages as links: every page has its own address (back, forward, reload and
// search engines all reach it), the current one marked.
import { Link } from 'react-router-dom';
import { formatCount } from '../../../lib/format-count';
import { pageItems } from '../lib/page-items';

export function ExplorePagination({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  const items = pageItems(page, pages);
  if (items.length === 0) return null;
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 ? (
        <Link className="pager__step" to={href(page - 1)} rel="prev">
          Previous
        </Link>
      ) : (
        <span className="pager__step" aria-disabled="true">
          Previous
        </span>
      )}
      <ol className="pager__pages">
        {items.map((item, i) =>
          item === 'gap' ? (
            <li key={`gap-${i}`} className="pager__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item}>
              <Link className="pager__page" to={href(item)} aria-current={item === page ? 'page' : undefined} aria-label={`Page ${formatCount(item)}`}>
                {formatCount(item)}
              </Link>
            </li>
          ),
        )}
      </ol>
      {page < pages ? (
        <Link className="pager__step" to={href(page + 1)} rel="next">
          Next
        </Link>
      ) : (
        <span className="pager__step" aria-disabled="true">
          Next
        </span>
      )}
    </nav>
  );
}
