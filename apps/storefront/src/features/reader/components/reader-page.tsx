// /read/:id: the free sample, one page at a time, with ad pages interleaved (spec §2, §4).
import { useEffect, useMemo, useRef } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { Book } from '@persona/contracts';
import { formatRs } from '@persona/contracts';
import { paths } from '../../../config/paths';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { errorMessage } from '@persona/web-kit/api-client';
import { META_DESCRIPTION_MAX, truncateText } from '../../../lib/truncate-text';
import { Skeleton } from '../../../components/ui/skeleton';
import { useToast } from '@persona/web-kit/toast';
import { SkipLink, MAIN_CONTENT_ID } from '../../../components/layout/main-layout';
import { BookLoadError, BookNotFound } from '../../../components/book/book-states';
import { isMissingBook, useBook } from '../../../hooks/use-book';
import { usePageTurner } from '../hooks/use-page-turner';
import { buildReaderPages, hasReadableSample, type ReaderPage as Page } from '../lib/reader-pages';
import './reader.css';

export function ReaderPage() {
  const { id = '' } = useParams();
  const book = useBook(id);
  const { toast } = useToast();

  useEffect(() => {
    if (book.status === 'error' && !isMissingBook(book.error)) {
      toast({ title: 'Error fetching books', description: errorMessage(book.error), variant: 'destructive' });
    }
  }, [book.status, book.error, toast]);

  const readable = book.status === 'success' && hasReadableSample(book.data.sampleContent);
  useDocumentHead(
    book.status === 'success' && readable
      ? {
          title: `Reading: ${book.data.title} | Persona`,
          description: truncateText(`Read a free sample of ${book.data.title} by ${book.data.author}, then make it your Persona.`, META_DESCRIPTION_MAX),
          image: book.data.coverImage?.url ?? null,
          type: 'book',
        }
      : book.status === 'loading'
        ? null
        : { title: 'Book not found | Persona', description: "We couldn't find the book you're looking for." },
  );

  if (book.status === 'loading') {
    return (
      <div className="reader reader--loading" aria-busy="true">
        <p className="visually-hidden" role="status">
          Loading sample
        </p>
        <div className="reader__sheet">
          <Skeleton style={{ height: '2rem', width: '40%' }} />
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="skeleton--line" style={{ width: `${90 - i * 7}%`, marginTop: '1rem' }} />
          ))}
        </div>
      </div>
    );
  }
  if (book.status === 'error' && !isMissingBook(book.error)) {
    return (
      <main id={MAIN_CONTENT_ID} className="reader reader--state">
        <BookLoadError title="We couldn't load this sample" message={errorMessage(book.error)} onRetry={book.reload} />
      </main>
    );
  }
  if (book.status === 'error' || !readable) {
    return (
      <main id={MAIN_CONTENT_ID} className="reader reader--state">
        <BookNotFound />
      </main>
    );
  }
  return <Reader book={book.data} />;
}

function Reader({ book }: { book: Book }) {
  const pages = useMemo(() => buildReaderPages(book.sampleContent), [book.sampleContent]);
  const turner = usePageTurner(pages.length);
  const page = pages[turner.index]!;
  const progress = `Page ${turner.index + 1} of ${pages.length}`;
  const prevRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);

  // A button that just became disabled would drop keyboard focus to <body>: hand it to the other one.
  useEffect(() => {
    const active = document.activeElement;
    if (turner.isLast && active === nextRef.current) prevRef.current?.focus();
    if (turner.isFirst && active === prevRef.current) nextRef.current?.focus();
  }, [turner.isFirst, turner.isLast]);

  return (
    <div className="reader">
      <SkipLink />
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

      <main id={MAIN_CONTENT_ID} className="reader__main" tabIndex={-1}>
        <h1 className="visually-hidden">Reading: {book.title}</h1>
        <div className={`reader__sheet${turner.transitioning ? ' reader__sheet--fading' : ''}`} key={turner.index}>
          <div className="reader__meta">
            <span className="reader__trial">Trial Version</span>
            <span className="reader__page-count">{progress}</span>
          </div>
          <PageBody page={page} checkoutPath={paths.checkout(book._id)} />
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

      <aside className="reader__banner" aria-label="Buy this book">
        <p className="reader__banner-text">Enjoying the book? Get your Personalized Persona without ads!</p>
        <Link to={paths.checkout(book._id)} className="btn btn--light">
          Buy Persona - {formatRs(book.price)}
        </Link>
      </aside>
    </div>
  );
}

function PageBody({ page, checkoutPath }: { page: Page; checkoutPath: string }) {
  if (page.isAd) {
    return (
      <section className="reader__ad" aria-label="Advertisement">
        <h2 className="reader__chapter">{page.chapter}</h2>
        <div className="reader__ad-box">
          <p className="reader__ad-text">{page.content}</p>
          <Link to={checkoutPath} className="btn btn--primary">
            Buy Persona - No Ads
          </Link>
        </div>
      </section>
    );
  }
  return (
    <section>
      <h2 className="reader__chapter">{page.chapter}</h2>
      <div className="reader__text">
        {page.content.split(/\n{2,}/).map((paragraph, i) => (
          <p key={i}>{paragraph}</p>
        ))}
      </div>
    </section>
  );
}
