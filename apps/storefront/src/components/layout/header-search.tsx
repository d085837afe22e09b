// The header search: sends the trimmed text to /books?search=…; blank text is ignored (spec §5).
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { searchPathFor } from '../../lib/search-path';

export function HeaderSearch({ onNavigate, className = '' }: { onNavigate?: () => void; className?: string }) {
  const [text, setText] = useState('');
  const navigate = useNavigate();
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const target = searchPathFor(text);
    if (!target) return;
    navigate(target);
    onNavigate?.();
  }

  return (
    <form role="search" className={`header-search ${className}`} onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        Search books by title or author
      </label>
      <svg className="header-search__icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
        <circle cx="11" cy="11" r="7" />
        <path d="m20 20-3.5-3.5" />
      </svg>
      <input
        id={id}
        type="search"
        name="search"
        className="header-search__input"
        placeholder="Search books..."
        autoComplete="off"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </form>
  );
}
