import { Link } from 'react-router-dom';
import type { BookSummary } from '@persona/contracts';
import { formatRs } from '@persona/contracts';
import { paths } from '../../../config/paths';
import { BookCover } from '../../../components/book/book-cover';
import { useRelatedCandidates } from '../api/use-related-candidates';
import { pickRelatedBooks } from '../lib/book-detail';

export function RelatedBooks({ book }: { book: BookSummary }) {
  const candidates = useRelatedCandidates(book._id);
  if (candidates.status !== 'success') return null;
  const related = pickRelatedBooks(book, candidates.data);
  if (related.length === 0) return null;
  return (
    <section className="related" aria-labelledby="related-heading">
      <h2 id="related-heading" className="section-heading">
        You Might Also Like
      </h2>
      <ul className="related__list">
        {related.map((other) => (
          <li key={other._id}>
            <Link to={paths.book(other._id)} className="related__card">
              <BookCover title={other.title} author={other.author} url={other.coverImage?.url} width={200} height={300} decorative />
              <span className="related__title">{other.title}</span>
              <span className="related__author">{other.author}</span>
              <span className="price related__price">{formatRs(other.price)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
