import { Link } from 'react-router-dom';
import type { BookSummary } from '@persona/contracts';
import { formatInr } from '@persona/contracts';
import { paths } from '../../../config/paths';
import { BookCover } from '../../../components/book/book-cover';
import { TagList } from '../../../components/book/tag-list';

export const HOME_CARD_TAGS = 2;

/** A featured book; the whole card is one link to /book/{_id} (DESIGN §9.1). */
export function HomeBookCard({ book }: { book: BookSummary }) {
  return (
    <Link to={paths.book(book._id)} className="home-card" data-book-id={book._id}>
      <BookCover title={book.title} author={book.author} url={book.coverImage?.url} decorative />
      <div className="home-card__body">
        <TagList tags={book.tags} max={HOME_CARD_TAGS} />
        <h3 className="home-card__title">{book.title}</h3>
        <p className="home-card__author">{book.author}</p>
        <p className="price home-card__price">{formatInr(book.price)}</p>
      </div>
    </Link>
  );
}
