import { useEffect, useId, useState, type FormEvent } from 'react';

/** A list's search box: typed freely, applied on Enter or "Search" (each search is a request). */
export function SearchForm({
  label,
  placeholder,
  value,
  onSearch,
  wide = false,
}: {
  label: string;
  placeholder?: string;
  value: string;
  onSearch: (text: string) => void;
  wide?: boolean;
}) {
  const [text, setText] = useState(value);
  const id = useId();
  // Back, forward or a link change the applied search: the box follows.
  useEffect(() => setText(value), [value]);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSearch(text.trim());
  }
  return (
    <form className={wide ? 'filters__search filters__search--wide' : 'filters__search'} role="search" onSubmit={submit}>
      <label htmlFor={id}>{label}</label>
      <div className="filters__search-row">
        <input id={id} type="search" placeholder={placeholder} maxLength={100} value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit" className="btn btn--outline btn--sm">
          Search
        </button>
      </div>
    </form>
  );
}
