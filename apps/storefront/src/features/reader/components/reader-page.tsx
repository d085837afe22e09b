// /read/:id: the free sample a screenful at a time (the text flowed into pages that fit), with
// the shop's ad slot after every third page and the end of the sample last (spec §2, §4);
// Previous/Next, the arrow keys and a swipe turn the pages. A book whose only sample is an
// uploaded PDF shows its pages (pdf-sample-reader.tsx); a book with none says so.
import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { Book } from '@persona/contracts';
import { paths } from '../../../config/paths';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { errorMessage } from '@persona/web-kit/api-client';
import { META_DESCRIPTION_MAX, truncateText } from '../../../lib/truncate-text';
import { Skeleton } from '../../../components/ui/skeleton';
import { useToast } from '@persona/web-kit/toast';
import { MAIN_CONTENT_ID } from '../../../components/layout/main-layout';
import { StateMessage } from '@persona/web-kit/state-message';
import { useHttpStatus } from '../../../lib/render-context';
import { BookLoadError, BookNotFound } from '../../../components/book/book-states';
import { isMissingBook, useBook } from '../../../hooks/use-book';
import { READER_AD_SLOT } from '../../../config/site-content';
import { useReaderLayout, blockClass } from '../hooks/use-reader-layout';
import type { FlowBlock } from '../lib/paginate';
import { AD_PLACEHOLDER_CHAPTER, hasReadableSample, type ReaderScreen } from '../lib/reader-pages';
import { AdSlot } from './ad-slot';
import { PdfSampleReader } from './pdf-sample-reader';
import { ReaderFrame, SampleEnd } from './reader-frame';
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

  // The text sample first (the reader's own pages), else the uploaded PDF (the book's `sample`).
  const kind =
    book.status !== 'success' ? null : hasReadableSample(book.data.sampleContent) ? 'text' : book.data.sample === 'pdf' && book.data.samplePdf ? 'pdf' : null;
  const readable = kind !== null;
  useDocumentHead(
    book.status === 'success' && readable
      ? {
          title: `Reading: ${book.data.title} | Persona`,
          description: truncateText(`Read a free sample of ${book.data.title} by ${book.data.author}, then make it your Persona.`, META_DESCRIPTION_MAX),
          image: book.data.coverImage?.url ?? null,
          type: 'book',
        }
      : book.status === 'success'
        ? { title: `No free sample: ${book.data.title} | Persona`, description: `${book.data.title} by ${book.data.author} has no free sample to read yet.` }
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
  if (book.status === 'error') {
    return (
      <main id={MAIN_CONTENT_ID} className="reader reader--state">
        <BookNotFound />
      </main>
    );
  }
  if (!readable) {
    return (
      <main id={MAIN_CONTENT_ID} className="reader reader--state">
        <NoSample book={book.data} />
      </main>
    );
  }
  return kind === 'pdf' ? <PdfSampleReader book={book.data} /> : <Reader book={book.data} />;
}

/** A book with nothing to read yet: said plainly, with the way back and the way to buy. */
function NoSample({ book }: { book: Book }) {
  // Nothing to read at this address: not a page for search engines either.
  useHttpStatus(404);
  return (
    <StateMessage headingLevel={1} title="No free sample yet" message={`${book.title} by ${book.author} has no free sample to read yet.`}>
      <Link to={paths.book(book._id)} className="btn btn--outline">
        Back to Book
      </Link>
      <Link to={paths.checkout(book._id)} className="btn btn--primary">
        Buy Persona
      </Link>
    </StateMessage>
  );
}

function Reader({ book }: { book: Book }) {
  const { screens, pageRef, probeRef, measured, turner } = useReaderLayout(book.sampleContent);
  const screen = screens[turner.index]!;
  // Until the text is laid out for this screen the count is unknown: the page number alone.
  const progress = measured ? `Page ${turner.index + 1} of ${screens.length}` : `Page ${turner.index + 1}`;
  return (
    <ReaderFrame book={book} turner={turner} progress={progress}>
      <div className="reader__page" ref={pageRef}>
        <div key={turner.index} className="reader__page-content">
          <Screen screen={screen} book={book} />
        </div>
        {/* Where the pages are measured: the same width and type, never seen. */}
        <div ref={probeRef} className="reader__text reader__probe" aria-hidden="true" />
      </div>
    </ReaderFrame>
  );
}

function Screen({ screen, book }: { screen: ReaderScreen; book: Book }) {
  const checkoutPath = paths.checkout(book._id);
  if (screen.kind === 'text') return <TextBlocks blocks={screen.blocks} />;
  if (screen.kind === 'end') return <SampleEnd book={book} />;
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
