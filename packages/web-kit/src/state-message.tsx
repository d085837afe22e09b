// The designed empty / not-found / error block every page shares.
import type { ReactNode } from 'react';
import './state-message.css';

interface StateMessageProps {
  title: string;
  message?: string;
  icon?: 'book' | 'search' | 'alert';
  children?: ReactNode;
  /** Page-level states use an h1 so the page still has a heading. */
  headingLevel?: 1 | 2;
}

const ICONS: Record<NonNullable<StateMessageProps['icon']>, ReactNode> = {
  book: <path d="M4 5a2 2 0 0 1 2-2h13v16H6a2 2 0 0 0-2 2zM4 21V5M8 7h7" />,
  search: (
    <>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </>
  ),
  alert: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v6M12 16.5v.5" />
    </>
  ),
};

export function StateMessage({ title, message, icon = 'book', children, headingLevel = 2 }: StateMessageProps) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <div className="state-message">
      <svg
        className="state-message__icon"
        viewBox="0 0 24 24"
        width="48"
        height="48"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        {ICONS[icon]}
      </svg>
      <Heading className="state-message__title">{title}</Heading>
      {message && <p className="state-message__text">{message}</p>}
      {children && <div className="state-message__actions">{children}</div>}
    </div>
  );
}
