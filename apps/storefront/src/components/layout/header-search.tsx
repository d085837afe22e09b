// The header search: a combobox (WAI-ARIA 1.2, list autocomplete) suggesting books and authors
// as the visitor types (GET /api/books/suggest). Arrow keys move through the suggestions, Enter
// opens the chosen one (or, with none chosen, searches /books?search=… for the text; blank text
// is ignored, spec §5), Escape closes the list, then clears the text.
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Envelope, Suggestion } from '@persona/contracts';
import { paths } from '../../config/paths';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useApiData } from '../../lib/api-data';
import { suggestionsPath } from '../../lib/catalogue-api';
import { searchPathFor } from '../../lib/search-path';

/** Suggestions start at two characters: one letter matches half the catalogue. */
export const SUGGEST_MIN_LENGTH = 2;
const SUGGEST_SETTLE_MS = 150;

function suggestionTarget(suggestion: Suggestion): string {
  return suggestion.kind === 'book' ? paths.book(suggestion._id) : paths.booksSearch(suggestion.author);
}

export function HeaderSearch({ onNavigate, className = '' }: { onNavigate?: () => void; className?: string }) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const navigate = useNavigate();
  const id = useId();
  const listId = `${id}-suggestions`;
  const inputRef = useRef<HTMLInputElement>(null);

  const settled = useDebouncedValue(text.trim(), SUGGEST_SETTLE_MS);
  const wanted = settled.length >= SUGGEST_MIN_LENGTH ? settled : null;
  const answer = useApiData<Envelope<Suggestion[]>>(wanted ? suggestionsPath(wanted) : null);
  const suggestions = wanted && answer.status === 'success' && settled === text.trim() ? answer.data.data : [];
  const expanded = open && suggestions.length > 0;

  useEffect(() => setActive(-1), [settled]);

  function go(target: string) {
    void navigate(target);
    setOpen(false);
    setActive(-1);
    inputRef.current?.blur();
    onNavigate?.();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (expanded && active >= 0) return go(suggestionTarget(suggestions[active]!));
    const target = searchPathFor(text);
    if (target) go(target);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (suggestions.length === 0) return;
      event.preventDefault();
      if (!open) {
        setOpen(true);
        setActive(event.key === 'ArrowDown' ? 0 : suggestions.length - 1);
        return;
      }
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // Past either end the focus returns to the text (no option active), as a native list does.
      setActive((current) => {
        const next = current + step;
        return next < -1 ? suggestions.length - 1 : next >= suggestions.length ? -1 : next;
      });
    } else if (event.key === 'Escape') {
      if (expanded) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else if (text) {
        event.preventDefault();
        setText('');
      }
    }
  }

  const activeId = expanded && active >= 0 ? `${listId}-${active}` : undefined;
  return (
    <form role="search" aria-label="Site" className={`header-search ${className}`} onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        Search books by title or author
      </label>
      <svg
        className="header-search__icon"
        viewBox="0 0 24 24"
        width="16"
        height="16"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      >
        <circle cx="11" cy="11" r="7" />
        <path d="m20 20-3.5-3.5" />
      </svg>
      <input
        ref={inputRef}
        id={id}
        type="search"
        name="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={activeId}
        className="header-search__input"
        placeholder="Search books..."
        autoComplete="off"
        maxLength={200}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" aria-label="Suggestions" className="header-search__list" hidden={!expanded}>
        {suggestions.map((suggestion, index) => (
          <li
            key={suggestion.kind === 'book' ? suggestion._id : `author:${suggestion.author}`}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className="header-search__option"
            // Chosen on mouse down, before the input's blur closes the list.
            onMouseDown={(event) => {
              event.preventDefault();
              go(suggestionTarget(suggestion));
            }}
          >
            {suggestion.kind === 'book' ? (
              <>
                <span className="header-search__option-title">{suggestion.title}</span>
                <span className="header-search__option-sub">{suggestion.author}</span>
              </>
            ) : (
              <>
                <span className="header-search__option-title">{suggestion.author}</span>
                <span className="header-search__option-sub">
                  Author · {suggestion.books} {suggestion.books === 1 ? 'book' : 'books'}
                </span>
              </>
            )}
          </li>
        ))}
      </ul>
      <p className="visually-hidden" role="status" aria-live="polite">
        {expanded ? `${suggestions.length} ${suggestions.length === 1 ? 'suggestion' : 'suggestions'}; use the arrow keys to choose` : ''}
      </p>
    </form>
  );
}
