// "Try it with your name": the visitor types the name they would have printed and is taken to a
// book's dedication page preview with it (the first featured book; the same list the page shows
// below, so no extra request). The name is kept in the persona draft too, so the checkout has it.
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { BookSummary, ListOf } from '@persona/contracts';
import { useApiData } from '../../../lib/api-data';
import { paths } from '../../../config/paths';
import { readPersonaDraft, savePersonaDraft } from '../../../lib/persona-draft';
import { featuredBooksPath } from '../api/featured-books-path';
import { previewHref } from '../lib/preview-href';

export function TryWithYourName({ name, onName }: { name: string; onName: (name: string) => void }) {
  const id = useId();
  const navigate = useNavigate();
  const books = useApiData<ListOf<BookSummary>>(featuredBooksPath('all', ''));
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = name.trim();
    if (!typed) {
      setProblem('Type the name you would like printed');
      return;
    }
    // A gift's message typed earlier stays; only the name is new.
    savePersonaDraft(window.sessionStorage, { name: typed, message: readPersonaDraft(window.sessionStorage)?.message ?? '' });
    const first = books.status === 'success' ? books.data.data[0] : undefined;
    // Without a book to show it in (the list not loaded), the explore page: every book page reads the draft.
    void navigate(first ? previewHref(first._id, typed) : paths.books);
  }

  return (
    <form className="hero__try" onSubmit={submit} noValidate>
      <label htmlFor={id} className="hero__try-label">
        Try it with your name
      </label>
      <div className="hero__try-row">
        <input
          id={id}
          className="text-input hero__try-input"
          value={name}
          maxLength={120}
          autoComplete="name"
          placeholder="Your name"
          aria-invalid={problem ? 'true' : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => {
            setProblem(null);
            onName(event.target.value);
          }}
        />
        <button type="submit" className="btn btn--light">
          See your page
        </button>
      </div>
      {problem && (
        <p id={`${id}-problem`} className="hero__try-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
