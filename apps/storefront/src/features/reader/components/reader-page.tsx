// /read/:id: the free sample a screenful at a time (the text flowed into pages that fit), with
// the shop's ad slot after every third page and the end of the sample last (spec §2, §4);
// Previous/Next, the arrow keys and a swipe turn the pages.
import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { Book } from '@persona/contracts';
import { formatInr } from '@persona/contracts';
import { paths } from '../../../config/paths';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { errorMessage } from '@persona/web-kit/api-client';
import { META_DESCRIPTION_MAX, truncateText } from '../../../lib/truncate-text';
import { Skeleton } from '../../../components/ui/skeleton';
import { useToast } from '@persona/web-kit/toast';
import { SkipLink, MAIN_CONTENT_ID } from '../../../components/layout/main-layout';
import { BookLoadError, BookNotFound } from '../../../components/book/book-states';
import { isMissingBook, useBook } from '../../../hooks/use-book';
import { READER_AD_SLOT } from '../../../config/site-content';
import { useReaderLayout, blockClass } from '../hooks/use-reader-layout';
import { useSwipe } from '../hooks/use-swipe';
import type { FlowBlock } from '../lib/paginate';
import { AD_PLACEHOLDER_CHAPTER, hasReadableSample, type ReaderScreen } from '../lib/reader-pages';
import { AdSlot } from './ad-slot';
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
  const { screens, pageRef, probeRef, measured, turner } = useReaderLayout(book.sampleContent);
  const screen = screens[turner.index]!;
  // Until the text is laid out for this screen the count is unknown: the page number alone.
  const progress = measured ? `Page ${turner.index + 1} of ${screens.length}` : `Page ${turner.index + 1}`;
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
            <div className="reader__page" ref={pageRef}>
              <div key={turner.index} className="reader__page-content">
                <Screen screen={screen} book={book} />
              </div>
              {/* Where the pages are measured: the same width and type, never seen. */}
              <div ref={probeRef} className="reader__text reader__probe" aria-hidden="true" />
            </div>
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

function Screen({ screen, book }: { screen: ReaderScreen; book: Book }) {
  const checkoutPath = paths.checkout(book._id);
  if (screen.kind === 'text') return <TextBlocks blocks={screen.blocks} />;
  if (screen.kind === 'end') {
    return (
      <section className="reader__end" aria-labelledby="reader-end-title">
        <h2 id="reader-end-title" className="reader__chapter">
          You&apos;ve reached the end of the sample
        </h2>
        <p className="reader__end-text">
          The whole of <cite>{book.title}</cite> is yours as a Persona: a copy with your name, the date you bought it and {book.author}&apos;s signature,
          digital or printed.
        </p>
        <div className="reader__end-actions">
          <Link to={checkoutPath} className="btn btn--primary btn--lg">
            Buy Persona
          </Link>
          <Link to={paths.book(book._id)} className="btn btn--outline">
            Back to Book
          </Link>
        </div>
      </section>
    );
  }
  return (
    <section className="reader__ad" aria-label="Advertisement">
      <h2 className="reader__chapter">{screen.inserted ? AD_PLACEHOLDER_CHAPTER : screen.chapter}</h2>
      <div className="reader__ad-box">
        {screen.inserted ? <AdSlot slot={READER_AD_SLOT} /> : <p className="reader__ad-text">{screen.content}</p>}
        <Link to={checkoutPath} className="btn btn--primary">
          Buy Persona - No Ads
        </Link>
      </div>
    </section>
  );
}

/** A page of text: excerpt headings and paragraphs; a paragraph carried over from the page before has no first-line gap. */
function TextBlocks({ blocks }: { blocks: readonly FlowBlock[] }) {
  return (
    <div className="reader__text">
      {blocks.map((block, i) =>
        block.kind === 'heading' ? (
          <h2 key={i} className="reader__chapter">
            {block.text}
          </h2>
        ) : (
          <p key={i} className={blockClass(block)}>
            {block.text}
          </p>
        ),
      )}
    </div>
  );
}
