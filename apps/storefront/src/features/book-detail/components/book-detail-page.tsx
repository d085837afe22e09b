// /book/:id: one book, its Persona pitch, a sample quote and related books (spec §2).
import { DETAIL_COVER_SIZES } from '../../../components/book/cover-sizes';
import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { Book } from '@persona/contracts';
import { formatInr } from '@persona/contracts';
import { paths } from '../../../config/paths';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { errorMessage } from '@persona/web-kit/api-client';
import { BookCover } from '../../../components/book/book-cover';
import { TagList } from '../../../components/book/tag-list';
import { Skeleton } from '../../../components/ui/skeleton';
import { useToast } from '@persona/web-kit/toast';
import { BookLoadError, BookNotFound } from '../../../components/book/book-states';
import { isMissingBook, useBook } from '../../../hooks/use-book';
import { bookHead, bookLength, sampleLength, sampleQuote, wordsLabel } from '../lib/book-detail';
import { DISPATCH_DAYS, personaFileNames, personaFormats, TRANSIT_DAYS } from '../../../lib/persona-formats';
import { BuyBar } from './buy-bar';
import { RelatedBooks } from './related-books';
import { useOrigin } from '../../../lib/render-context';
import './book-detail.css';
import { TryYourPage } from './try-your-page';

export function BookDetailPage() {
  const { id = '' } = useParams();
  const book = useBook(id);
  const { toast } = useToast();
  const origin = useOrigin();
  const missing = book.status === 'error' && isMissingBook(book.error);

  useEffect(() => {
    if (book.status === 'error' && !isMissingBook(book.error)) {
      toast({ title: 'Error fetching books', description: errorMessage(book.error), variant: 'destructive' });
    }
  }, [book.status, book.error, toast]);

  useDocumentHead(
    book.status === 'success'
      ? bookHead(book.data, origin)
      : book.status === 'error'
        ? { title: 'Book not found | Persona Books', description: "We couldn't find the book you're looking for.", robots: 'noindex' }
        : null,
  );

  if (book.status === 'loading') return <BookDetailSkeleton />;
  if (book.status === 'error') {
    return (
      <div className="container">
        {missing ? <BookNotFound /> : <BookLoadError title="We couldn't load this book" message={errorMessage(book.error)} onRetry={book.reload} />}
      </div>
    );
  }
  return <BookDetail book={book.data} />;
}

function BookDetail({ book }: { book: Book }) {
  const quote = sampleQuote(book.sampleContent);
  const formats = personaFormats(book);
  const sample = sampleLength(book.sampleContent);
  const length = bookLength(book);
  const buyBox = useRef<HTMLDivElement>(null);
  return (
    <article className="book-detail">
      <div className="container">
        <nav aria-label="Breadcrumb" className="breadcrumb">
          <ol>
            <li>
              <Link to={paths.home}>Home</Link>
            </li>
            <li>
              <Link to={paths.books}>Books</Link>
            </li>
            <li aria-current="page">{book.title}</li>
          </ol>
        </nav>

        {/* Personalisation first (as Wonderbly and Hooray Heroes do): on a phone the cover sits beside
            the title and price, and the name field comes right under them, on the first screen. */}
        <div className="book-detail__grid">
          <div className="book-detail__cover">
            <BookCover title={book.title} author={book.author} url={book.coverImage?.url} width={480} height={720} eager sizes={DETAIL_COVER_SIZES} />
          </div>

          <header className="book-detail__head">
            <TagList tags={book.tags} />
            <h1 className="book-detail__title">{book.title}</h1>
            <p className="book-detail__author">
              by <span>{book.author}</span>
            </p>
            <p className="book-detail__price">
              <span className="price">{formatInr(book.price)}</span>
              <span className="book-detail__price-label">Personalised edition</span>
            </p>
          </header>

          <TryYourPage bookId={book._id} />

          <div className="book-detail__price-box" ref={buyBox}>
            <ul className="book-formats" aria-label="Formats">
              {formats.map((format) => (
                <li key={format.type} className="book-formats__item">
                  <span className="book-formats__name">{format.name}</span>
                  <span className="book-formats__price price">{formatInr(format.total)}</span>
                  <span className="book-formats__includes">
                    {format.includes.join('. ')}.
                    {format.parts.length > 0 && <> ({format.parts.map((part) => `${part.label.toLowerCase()} ${formatInr(part.amount)}`).join(' + ')})</>}
                  </span>
                </li>
              ))}
            </ul>
            <div className="book-detail__actions">
              {/* Only a book with a sample to read offers one (never a reader with nothing in it). */}
              {book.sample && (
                <Link to={paths.read(book._id)} className="btn btn--outline btn--lg">
                  Read a free sample
                </Link>
              )}
              <Link to={paths.checkout(book._id)} className="btn btn--primary btn--lg">
                Buy Persona
              </Link>
            </div>
          </div>

          <div className="book-detail__info">
            <section aria-labelledby="book-facts-heading" className="book-detail__section">
              <h2 id="book-facts-heading" className="book-detail__section-title">
                At a glance
              </h2>
              <dl className="book-facts">
                <div>
                  <dt>Formats</dt>
                  <dd>Digital ({personaFileNames(book)}) or printed</dd>
                </div>
                {length && (
                  <div>
                    <dt>Length</dt>
                    <dd>{length}</dd>
                  </div>
                )}
                <div>
                  <dt>Language</dt>
                  <dd>{book.language}</dd>
                </div>
                <div>
                  <dt>Free sample</dt>
                  <dd>
                    {sample.excerpts > 0
                      ? `${sample.excerpts} ${sample.excerpts === 1 ? 'excerpt' : 'excerpts'}, ${wordsLabel(sample.words)}`
                      : book.sample === 'pdf'
                        ? 'Sample pages (PDF)'
                        : 'None yet'}
                  </dd>
                </div>
                <div>
                  <dt>Printed copy</dt>
                  <dd>
                    Dispatched within {DISPATCH_DAYS}, delivered {TRANSIT_DAYS} later
                  </dd>
                </div>
                {book.category && (
                  <div>
                    <dt>Category</dt>
                    <dd>{book.category.name}</dd>
                  </div>
                )}
              </dl>
            </section>

            <section aria-labelledby="about-book-heading" className="book-detail__section">
              <h2 id="about-book-heading" className="book-detail__section-title">
                About this book
              </h2>
              <p className="book-detail__description">{book.description}</p>
            </section>

            <section aria-labelledby="about-personas-heading" className="book-detail__personas">
              <h2 id="about-personas-heading" className="book-detail__section-title">
                About Personas
              </h2>
              <p>
                A Persona is your own personalised copy of <em>{book.title}</em>. It carries your name and the purchase date, a digital signature that proves it
                genuine, and a unique Persona ID you can use to find your copy again.
              </p>
              <ul className="book-detail__perks">
                <li>Your name on the dedication page</li>
                {/* Only an uploaded signature is the author's own; otherwise the shop signs for the author (issue 24, point 8). */}
                <li>{book.hasAuthorSignature ? "The author's own signature" : 'Signed by Persona Books for the author'}</li>
                <li>Digital download or a printed copy</li>
              </ul>
            </section>

            {quote && (
              <figure className="book-detail__quote">
                <blockquote>
                  <p>“{quote}”</p>
                </blockquote>
                <figcaption>From the free sample</figcaption>
              </figure>
            )}
          </div>
        </div>

        <RelatedBooks bookId={book._id} />
      </div>
      <BuyBar book={book} from={formats[0].total} watch={buyBox} />
    </article>
  );
}

function BookDetailSkeleton() {
  return (
    <div className="container book-detail page-pending" aria-busy="true">
      <p className="visually-hidden" role="status">
        Loading book
      </p>
      <div className="book-detail__grid">
        <Skeleton className="book-detail__cover book-detail__cover-skeleton" />
        <div className="book-detail__head">
          <Skeleton className="skeleton--line" style={{ width: '30%' }} />
          <Skeleton style={{ height: '2.5rem', width: '80%' }} />
          <Skeleton className="skeleton--line" style={{ width: '40%' }} />
        </div>
        <Skeleton className="book-detail__price-box" style={{ height: '14rem' }} />
        <div className="book-detail__info">
          <Skeleton style={{ height: '8rem', width: '100%' }} />
          <Skeleton style={{ height: '6rem', width: '100%' }} />
        </div>
      </div>
    </div>
  );
}
