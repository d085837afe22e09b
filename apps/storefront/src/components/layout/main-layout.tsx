// The shared public layout (spec §2): skip link, banner, sticky header, page, footer.
import type { ReactNode } from 'react';
import { SiteBanner } from './site-banner';
import { Header } from './header';
import { Footer } from './footer';
import './layout.css';

export const MAIN_CONTENT_ID = 'main-content';

export function SkipLink() {
  return (
    <a className="skip-link" href={`#${MAIN_CONTENT_ID}`}>
      Skip to main content
    </a>
  );
}

export function MainLayout({ children, newsletter }: { children: ReactNode; newsletter?: ReactNode }) {
  return (
    <div className="layout">
      <SkipLink />
      <SiteBanner />
      <Header />
      <main id={MAIN_CONTENT_ID} className="layout__main" tabIndex={-1}>
        {children}
      </main>
      <Footer newsletter={newsletter} />
    </div>
  );
}
