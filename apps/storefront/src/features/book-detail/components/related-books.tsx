// "You Might Also Like" (spec §2): up to 4 other books the server picks (same category, shared tags).
import { Link } from 'react-router-dom';
import type { BookSummary, Envelope } from '@persona/contracts';
import { formatInr } from '@persona/contracts';
import { paths } from '../../../config/paths';
import { BookCover } from '../../../components/book/book-cover';
import { useApiData } from '../../../lib/api-data';
import { relatedPath } from '../api/related-books-path';

export function RelatedBooks({ bookId }: { bookId: string }) {
  const related = useApiData<Envelope<BookSummary[]>>(relatedPath(bookId));
  // A failure simply leaves the section out.
  if (related.status !== 'success' || related.data.data.length === 0) return null;
  return (
    <section className="related" aria-labelledby="related-heading">
      <h2 id="related-heading" className="section-heading">
        You Might Also Like
      </h2>
      <ul className="related__list">
        {related.data.data.map((other) => (
          <li key={other._id}>
            <Link to={paths.book(other._id)} className="related__card">
              <BookCover
                title={other.title}
                author={other.author}
                url={other.coverImage?.url}
                width={200}
                height={300}
                decorative
                sizes="(max-width: 899px) 45vw, 14rem"
              />
              <span className="related__title">{other.title}</span>
              <span className="related__author">{other.author}</span>
              <span className="price related__price">{formatInr(other.price)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
