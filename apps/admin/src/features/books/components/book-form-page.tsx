// The book form in create (/books/new) and edit (/books/:id/edit) modes (spec §2, §5, §7, §8).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { BOOK_LIMITS, type Book } from '@persona/contracts';
import { errorMessage } from '@persona/web-kit/api-client';
import { useAsync } from '@persona/web-kit/use-async';
import { useToast } from '@persona/web-kit/toast';
import { paths } from '../../../config/paths';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageLoading } from '../../../components/page-loading';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { listCategories } from '../../../lib/categories-api';
import { usePageTitle } from '../../../lib/use-page-title';
import { getBookForEdit, saveBook } from '../api/books';
import { bookFormEntries, EMPTY_BOOK_FORM, shownSample, validateBookForm, valuesFromBook, type BookFiles, type BookFormValues } from '../lib/book-form';
import { FilePicker } from './file-picker';
import { SamplePagesEditor } from './sample-pages-editor';

export function BookFormPage() {
  const { id } = useParams<{ id: string }>();
  const editing = Boolean(id);
  usePageTitle(editing ? 'Edit book' : 'Add a book');
  const existing = useAsync(`book:${id ?? 'new'}`, (signal) => (id ? getBookForEdit(id, signal) : Promise.resolve(null)));
  useFailureToast(existing.error, 'Failed to load book');

  if (existing.status === 'loading') return <PageLoading text="Loading book..." />;
  if (existing.status === 'error') {
    return (
      <>
        <PageHeader title="Edit Book" />
        <LoadError what="The book" error={existing.error} onRetry={existing.reload} />
      </>
    );
  }
  return <BookForm key={id ?? 'new'} existing={existing.data} />;
}

function BookForm({ existing }: { existing: { book: Book; content: string[] } | null }) {
  const book = existing?.book ?? null;
  const navigate = useNavigate();
  const { toast } = useToast();
  const categories = useAsync('categories', listCategories);
  useFailureToast(categories.error, 'Failed to load categories');
  const [values, setValues] = useState<BookFormValues>(() => (existing ? valuesFromBook(existing.book, existing.content) : EMPTY_BOOK_FORM));
  const [files, setFiles] = useState<BookFiles>({});
  // What the shop will offer as the free sample, said as the administrator writes it.
  const shown = shownSample(values, files, book);
  const [saving, setSaving] = useState(false);
  const savingRef = useRef(false);
  const formId = useId();
  const id = (name: string) => `${formId}-${name}`;

  useEffect(() => {
    // Edit mode of a book whose category was deleted meanwhile: make the person choose again.
    if (categories.status === 'success' && values.category && !categories.data.some((c) => c._id === values.category)) {
      setValues((v) => ({ ...v, category: '' }));
    }
  }, [categories.status, categories.data, values.category]);

  const set =
    <K extends keyof BookFormValues>(key: K) =>
    (value: BookFormValues[K]) =>
      setValues((v) => ({ ...v, [key]: value }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Spec §4: a second submit while saving is ignored (the ref closes the gap before React re-renders).
    if (savingRef.current) return;
    const problem = validateBookForm(values);
    if (problem) {
      toast({ title: 'Error saving book', description: problem, variant: 'destructive' });
      return;
    }
    savingRef.current = true;
    setSaving(true);
    try {
      const form = new FormData();
      for (const [name, value] of bookFormEntries(values, files, book ? 'edit' : 'create')) form.append(name, value);
      await saveBook(form, book?._id);
      toast({ title: book ? 'Book updated successfully' : 'Book created successfully' });
      void navigate(paths.books);
    } catch (error) {
      toast({ title: 'Error saving book', description: errorMessage(error), variant: 'destructive' });
      savingRef.current = false;
      setSaving(false);
    }
  }

  return (
    <>
      <PageHeader title={book ? 'Edit Book' : 'Add New Book'} />
      <form className="book-form panel" onSubmit={submit} noValidate={false} aria-busy={saving}>
        <div className="form-grid">
          <div className="field">
            <label htmlFor={id('title')}>
              Title <span aria-hidden="true">*</span>
            </label>
            <input id={id('title')} required maxLength={BOOK_LIMITS.titleMax} value={values.title} onChange={(e) => set('title')(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={id('author')}>
              Author <span aria-hidden="true">*</span>
            </label>
            <input id={id('author')} required maxLength={BOOK_LIMITS.authorMax} value={values.author} onChange={(e) => set('author')(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={id('language')}>Language</label>
            <input
              id={id('language')}
              maxLength={BOOK_LIMITS.languageMax}
              autoComplete="off"
              value={values.language}
              onChange={(e) => set('language')(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={id('price')}>
              Price (₹) <span aria-hidden="true">*</span>
            </label>
            <input
              id={id('price')}
              type="number"
              inputMode="decimal"
              required
              min={0}
              max={BOOK_LIMITS.priceMax}
              step="0.01"
              value={values.price}
              onChange={(e) => set('price')(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={id('printingCost')}>Printing cost (₹, physical copies)</label>
            <input
              id={id('printingCost')}
              type="number"
              inputMode="decimal"
              min={0}
              max={BOOK_LIMITS.priceMax}
              step="0.01"
              value={values.printingCost}
              onChange={(e) => set('printingCost')(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={id('category')}>
              Category <span aria-hidden="true">*</span>
            </label>
            <select
              id={id('category')}
              required
              value={values.category}
              onChange={(e) => set('category')(e.target.value)}
              disabled={categories.status !== 'success'}
            >
              <option value="">{categories.status === 'loading' ? 'Loading categories...' : 'Choose a category'}</option>
              {categories.status === 'success' &&
                categories.data.map((category) => (
                  <option key={category._id} value={category._id}>
                    {category.name}
                  </option>
                ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={id('ratings')}>Ratings (0 to 5)</label>
            <input
              id={id('ratings')}
              type="number"
              inputMode="decimal"
              min={0}
              max={BOOK_LIMITS.ratingMax}
              step="0.1"
              value={values.ratings}
              onChange={(e) => set('ratings')(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={id('trailLimit')}>Trial paragraphs</label>
            <input
              id={id('trailLimit')}
              type="number"
              inputMode="numeric"
              min={0}
              max={BOOK_LIMITS.trailLimitMax}
              step="1"
              value={values.trailLimit}
              onChange={(e) => set('trailLimit')(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={id('tags')}>Tags</label>
            <input id={id('tags')} value={values.tags} onChange={(e) => set('tags')(e.target.value)} aria-describedby={id('tags-hint')} />
            <p id={id('tags-hint')} className="form-note">
              Comma separated, for example: Fiction, Memoir
            </p>
          </div>
        </div>

        <div className="field">
          <label htmlFor={id('description')}>
            Description <span aria-hidden="true">*</span>
          </label>
          <textarea
            id={id('description')}
            required
            rows={4}
            maxLength={BOOK_LIMITS.descriptionMax}
            value={values.description}
            onChange={(e) => set('description')(e.target.value)}
          />
        </div>

        <div className="field">
          <label htmlFor={id('content')}>Content (the full text)</label>
          <textarea id={id('content')} rows={8} value={values.content} onChange={(e) => set('content')(e.target.value)} aria-describedby={id('content-hint')} />
          <p id={id('content-hint')} className="form-note">
            One paragraph per line. Only administrators and the Persona maker ever see it.
          </p>
        </div>

        <fieldset className="field">
          <legend>Free sample</legend>
          <div className="segmented" role="radiogroup" aria-label="How the sample is written">
            <label className="checkbox">
              <input type="radio" name="sampleMode" checked={values.sampleMode === 'text'} onChange={() => set('sampleMode')('text')} /> Plain text, one page
              per line
            </label>
            <label className="checkbox">
              <input type="radio" name="sampleMode" checked={values.sampleMode === 'pages'} onChange={() => set('sampleMode')('pages')} /> Pages with chapters
            </label>
          </div>
          {values.sampleMode === 'text' ? (
            <>
              <label htmlFor={id('sampleText')} className="visually-hidden">
                Sample text, one page per line
              </label>
              <textarea id={id('sampleText')} rows={6} value={values.sampleText} onChange={(e) => set('sampleText')(e.target.value)} />
            </>
          ) : (
            <SamplePagesEditor pages={values.samplePages} onChange={set('samplePages')} />
          )}
          <p className="form-note" role="status">
            {shown.note}
          </p>
        </fieldset>

        <div className="form-grid">
          <FilePicker
            field="coverImage"
            label="Cover image"
            picked={files.coverImage ? [files.coverImage] : []}
            onPick={(picked) => setFiles((f) => ({ ...f, coverImage: picked[0] }))}
            current={book?.coverImage && <img src={book.coverImage.url} alt={`Current cover of ${book.title}`} className="file-field__thumb" />}
            hint="JPEG, PNG, GIF or WebP, under 10MB."
          />
          <FilePicker
            field="images"
            label="Additional images"
            multiple
            picked={files.images ?? []}
            onPick={(picked) => setFiles((f) => ({ ...f, images: picked }))}
            current={
              book &&
              book.images.length > 0 && (
                <ul className="file-field__thumbs">
                  {book.images.map((image, index) => (
                    <li key={image.url}>
                      <img src={image.url} alt={`Current image ${index + 1} of ${book.title}`} className="file-field__thumb file-field__thumb--small" />
                    </li>
                  ))}
                </ul>
              )
            }
            hint={book && book.images.length > 0 ? 'Choosing new images replaces the current ones.' : 'Up to 8 images.'}
          />
          <FilePicker
            field="samplePdf"
            label="Sample PDF"
            picked={files.samplePdf ? [files.samplePdf] : []}
            onPick={(picked) => setFiles((f) => ({ ...f, samplePdf: picked[0] }))}
            current={
              book?.samplePdf && (
                <a href={book.samplePdf.url} target="_blank" rel="noreferrer">
                  Current sample PDF
                </a>
              )
            }
            hint="PDF, under 10MB."
          />
          <FilePicker
            field="fullPdf"
            label="Full PDF"
            picked={files.fullPdf ? [files.fullPdf] : []}
            onPick={(picked) => setFiles((f) => ({ ...f, fullPdf: picked[0] }))}
            current={book?.hasFullPdf && <span>A full PDF is uploaded (kept private).</span>}
            hint="PDF, under 10MB. Personas are made from it when present, else from the content."
          />
          <FilePicker
            field="authorSignature"
            label="Signature of the author"
            picked={files.authorSignature ? [files.authorSignature] : []}
            onPick={(picked) => setFiles((f) => ({ ...f, authorSignature: picked[0] }))}
            current={book?.hasAuthorSignature && <span>The author's signature is uploaded (kept private); choosing a new one replaces it.</span>}
            hint="The author's own signature, a PNG with a transparent background; without it the copy says it is signed by Persona Books for the author"
          />
        </div>

        <div className="form-actions">
          <button type="submit" className="btn btn--primary" disabled={saving}>
            {saving ? 'Saving...' : book ? 'Update Book' : 'Create Book'}
          </button>
          <button type="button" className="btn btn--outline" onClick={() => navigate(paths.books)} disabled={saving}>
            Cancel
          </button>
        </div>
      </form>
    </>
  );
}
