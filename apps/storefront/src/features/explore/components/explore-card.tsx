import { Link } from 'react-router-dom';
import type { BookSummary } from '@persona/contracts';
import { formatInr } from '@persona/contracts';
import { paths } from '../../../config/paths';
import { BookCover } from '../../../components/book/book-cover';
import { TagList } from '../../../components/book/tag-list';

export const EXPLORE_CARD_TAGS = 2;

/**
 * Hover or keyboard focus reveals "View Details"; on touch screens it is always shown. The first
 * row's covers load at once (`eager`), the very first one ahead of everything (it is the page's
 * largest paint on a phone); the rest wait until they near the screen.
 */
export function ExploreCard({ book, eager = false, priority = false }: { book: BookSummary; eager?: boolean; priority?: boolean }) {
  return (
    <article className="explore-card" data-book-id={book._id} aria-labelledby={`book-title-${book._id}`}>
      <div className="explore-card__media">
        <BookCover title={book.title} author={book.author} url={book.coverImage?.url} eager={eager} priority={priority} />
        <div className="explore-card__overlay">
          <Link to={paths.book(book._id)} className="btn btn--light explore-card__details">
            View Details
            <span className="visually-hidden">: {book.title}</span>
          </Link>
        </div>
      </div>
      <div className="explore-card__body">
        <h2 id={`book-title-${book._id}`} className="explore-card__title">
          {book.title}
        </h2>
        <p className="explore-card__author">{book.author}</p>
        <p className="explore-card__description">{book.description}</p>
        <div className="explore-card__footer">
          <span className="price">{formatInr(book.price)}</span>
          <TagList tags={book.tags} max={EXPLORE_CARD_TAGS} />
        </div>
      </div>
    </article>
  );
}
