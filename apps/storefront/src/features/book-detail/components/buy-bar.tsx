// The phone's buy bar: once the price box has scrolled away, the title, the lowest price and
// "Buy Persona" stay at the bottom of the screen. It sticks within the book's article, so it
// never covers the footer; hidden (out of the page and of the accessibility tree) until needed.
import { useEffect, useState, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import { formatInr, type Book } from '@persona/contracts';
import { paths } from '../../../config/paths';

export function BuyBar({ book, from, watch }: { book: Pick<Book, '_id' | 'title'>; from: number; watch: RefObject<HTMLElement | null> }) {
  const [shown, setShown] = useState(false);

  useEffect(() => {
    const box = watch.current;
    if (!box) return;
    // Shown only once the box is above the screen, not while the reader has yet to reach it. Read
    // on scroll (once a frame), not by an IntersectionObserver: the box now starts below the first
    // screen (the name to print comes first), and a jump from below the screen to above it changes
    // no intersection, so an observer would never say so.
    let frame = 0;
    const check = () => {
      frame = 0;
      setShown(box.getBoundingClientRect().bottom < 0);
    };
    const onScroll = () => {
      if (!frame) frame = window.requestAnimationFrame(check);
    };
    check();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      window.cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
    };
  }, [watch]);

  return (
    <aside className="buy-bar" aria-label="Buy this book" hidden={!shown}>
      <div className="container buy-bar__inner">
        <p className="buy-bar__text">
          <span className="buy-bar__title">{book.title}</span>
          <span className="buy-bar__price">from {formatInr(from)}</span>
        </p>
        <Link to={paths.checkout(book._id)} className="btn btn--primary">
          Buy Persona
        </Link>
      </div>
    </aside>
  );
}
