import type { ReactNode } from 'react';
import './info-pages.css';

/** The frame every static page shares: a heading band and a readable column. */
export function InfoPage({ eyebrow, title, lead, children }: { eyebrow: string; title: string; lead?: string; children: ReactNode }) {
  return (
    <div className="info-page">
      <header className="info-page__header">
        <div className="container">
          <p className="eyebrow">{eyebrow}</p>
          <h1 className="info-page__title">{title}</h1>
          {lead && <p className="info-page__lead">{lead}</p>}
        </div>
      </header>
      <div className="container info-page__body">{children}</div>
    </div>
  );
}
