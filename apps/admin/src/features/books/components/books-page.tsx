// All Books (spec §2, §8): a grid with Add New Book, Edit and Delete (confirmed), prices in rupees.
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { hasImageCopies, imageSrcSet, type BookSummary } from '@persona/contracts';
import { LogoMark } from '@persona/web-kit/logo-mark';
import { useAsync } from '@persona/web-kit/use-async';
import { useToast } from '@persona/web-kit/toast';
import { paths } from '../../../config/paths';
import { useConfirm } from '../../../components/confirm-dialog';
import { ListView } from '../../../components/list-view';
import { PageHeader } from '../../../components/page-header';
import { Pagination } from '../../../components/pagination';
import { SearchForm } from '../../../components/search-form';
import { formatInr } from '../../../lib/format';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { deleteBook, listBooks } from '../api/books';

const PAGE_SIZE = 24;

export function BooksPage() {
  usePageTitle('Books');
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const search = (params.get('search') ?? '').slice(0, 100);
  const books = useAsync(`books:${page}:${search}`, (signal) => listBooks({ page, limit: PAGE_SIZE, ...(search ? { search } : {}) }, signal));
  useFailureToast(books.error, 'Error fetching books');
  const { toast } = useToast();
  const confirm = useConfirm();
  const [deleting, setDeleting] = useState<string | null>(null);

  async function remove(book: BookSummary) {
    if (deleting) return;
    if (!(await confirm({ message: 'Are you sure you want to delete this book?' }))) return;
    setDeleting(book._id);
    try {
      await deleteBook(book._id);
      toast({ title: 'Book deleted successfully' });
      books.reload();
    } catch {
      toast({ title: 'Delete failed', variant: 'destructive' });
    } finally {
      setDeleting(null);
    }
  }

  const total = books.status === 'success' ? books.data.meta.total : 0;

  return (
    <>
      <PageHeader title="All Books">
        <Link to={paths.newBook} className="btn btn--primary btn--sm">
          Add New Book
        </Link>
      </PageHeader>
      <SearchForm
        label="Search by title or author"
        value={search}
        onSearch={(text) => setParams(text ? new URLSearchParams({ search: text }) : new URLSearchParams())}
        wide
      />
      <ListView list={books} what="Books" loading="Loading books..." empty="No books found.">
        {(answer) => (
          <>
            <ul className="book-grid">
              {answer.data.map((book) => (
                <li key={book._id} className="book-card" data-book-id={book._id}>
                  <div className="book-card__cover">
                    {book.coverImage ? (
                      <img
                        src={book.coverImage.url}
                        {...(hasImageCopies(book.coverImage.url) ? { srcSet: imageSrcSet(book.coverImage.url), sizes: '11rem' } : {})}
                        alt=""
                        loading="lazy"
                        decoding="async"
                        width="160"
                        height="240"
                      />
                    ) : (
                      <LogoMark size={48} className="book-card__placeholder" />
                    )}
                  </div>
                  <div className="book-card__body">
                    <h2 className="book-card__title">{book.title}</h2>
                    <p className="book-card__author">{book.author}</p>
                    <p className="book-card__price">{formatInr(book.price)}</p>
                    <p className="book-card__meta">{book.category?.name ?? 'No category'}</p>
                  </div>
                  <div className="book-card__actions">
                    <Link to={paths.editBook(book._id)} className="btn btn--outline btn--sm">
                      Edit<span className="visually-hidden"> {book.title}</span>
                    </Link>
                    <button type="button" className="btn btn--danger btn--sm" onClick={() => remove(book)} disabled={deleting === book._id}>
                      Delete<span className="visually-hidden"> {book.title}</span>
                    </button>
                  </div>
                </li>
              ))}
            </ul>
            <Pagination
              page={page}
              pages={Math.max(1, Math.ceil(total / PAGE_SIZE))}
              onPage={(next) => {
                const nextParams = new URLSearchParams(params);
                nextParams.set('page', String(next));
                setParams(nextParams);
              }}
            />
          </>
        )}
      </ListView>
    </>
  );
}
