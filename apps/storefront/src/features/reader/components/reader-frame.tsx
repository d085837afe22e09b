// The reader's frame, shared by the text sample and the sample PDF: the top bar, the sheet with
// its trial label and page count, Previous/Next (keys and swipes too), the buying banner, and
// the end of the sample.
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Book } from '@persona/contracts';
import { formatInr } from '@persona/contracts';
import { paths } from '../../../config/paths';
import { SkipLink, MAIN_CONTENT_ID } from '../../../components/layout/main-layout';
import { useSwipe } from '../hooks/use-swipe';

/** What turns the reader's pages: the text's screens or the PDF's pages, one at a time with a fade. */
export interface ReaderTurner {
  index: number;
  transitioning: boolean;
  isFirst: boolean;
  isLast: boolean;
  next: () => void;
  previous: () => void;
}

/** The reader around a page: the top bar, the sheet with its trial label and count, Previous/Next, and the buying banner. */
export function ReaderFrame({ book, turner, progress, children }: { book: Book; turner: ReaderTurner; progress: string; children: ReactNode }) {
  const prevRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const swipe = useSwipe({ onNext: turner.next, onPrevious: turner.previous });

  // A button that just became disabled would drop keyboard focus to <body>: hand it to the other one.
  useEffect(() => {
    const active = document.activeElement;
    if (turner.isLast && active === nextRef.current) prevRef.current?.focus();
    if (turner.isFirst && active === prevRef.current) nextRef.current?.focus();
  }, [turner.isFirst, turner.isLast]);

  return (
    <div className="reader">
      <SkipLink />
      <div className="reader__screen">
        <header className="reader__topbar">
          <div className="reader__topbar-inner">
            <Link to={paths.book(book._id)} className="btn btn--ghost btn--sm">
              <span aria-hidden="true">←</span> Back to Book
            </Link>
            <div className="reader__heading">
              <p className="reader__book-title">{book.title}</p>
              <p className="reader__book-author">{book.author}</p>
            </div>
            <Link to={paths.checkout(book._id)} className="btn btn--primary btn--sm">
              Buy Persona
            </Link>
          </div>
        </header>

        <main id={MAIN_CONTENT_ID} className="reader__main" tabIndex={-1} {...swipe}>
          <h1 className="visually-hidden">Reading: {book.title}</h1>
          <div className={`reader__sheet${turner.transitioning ? ' reader__sheet--fading' : ''}`}>
            <div className="reader__meta">
              <span className="reader__trial">Trial Version</span>
              <span className="reader__page-count">{progress}</span>
            </div>
            {children}
          </div>
        </main>

        <nav className="reader__bottombar" aria-label="Sample pages">
          <div className="reader__bottombar-inner">
            <button ref={prevRef} type="button" className="btn btn--outline" onClick={turner.previous} disabled={turner.isFirst}>
              <span aria-hidden="true">←</span> Previous
            </button>
            <p className="reader__progress" aria-live="polite" aria-atomic="true">
              {progress}
            </p>
            <button ref={nextRef} type="button" className="btn btn--primary" onClick={turner.next} disabled={turner.isLast}>
              Next <span aria-hidden="true">→</span>
            </button>
          </div>
        </nav>
      </div>

      <aside className="reader__banner" aria-label="Buy this book">
        <p className="reader__banner-text">Enjoying the book? Get your personalised Persona without ads!</p>
        <Link to={paths.checkout(book._id)} className="btn btn--light">
          Buy Persona - {formatInr(book.price)}
        </Link>
      </aside>
    </div>
  );
}

/** The last page of every sample: the whole book as a Persona, and the way back. */
export function SampleEnd({ book }: { book: Book }) {
  return (
    <section className="reader__end" aria-labelledby="reader-end-title">
      <h2 id="reader-end-title" className="reader__chapter">
        You&apos;ve reached the end of the sample
      </h2>
      <p className="reader__end-text">
        The whole of <cite>{book.title}</cite> is yours as a Persona: a copy with your name and the date you bought it,{' '}
        {book.hasAuthorSignature ? <>signed by {book.author},</> : <>signed for {book.author},</>} digital or printed.
      </p>
      <div className="reader__end-actions">
        <Link to={paths.checkout(book._id)} className="btn btn--primary btn--lg">
          Buy Persona
        </Link>
        <Link to={paths.book(book._id)} className="btn btn--outline">
          Back to Book
        </Link>
      </div>
    </section>
  );
}
