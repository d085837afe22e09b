// The public layout route: shared chrome around every page but the reader.
import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { MainLayout, MAIN_CONTENT_ID } from '../../components/layout/main-layout';
import { NewsletterForm } from '../../features/newsletter/components/newsletter-form';
import { PageFallback } from './page-fallback';

export function RootLayout() {
  useFocusMainOnNavigation();
  return (
    <MainLayout newsletter={<NewsletterForm />}>
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
    </MainLayout>
  );
}

/** After a client-side navigation, screen-reader and keyboard users start at the new page's content. */
function useFocusMainOnNavigation() {
  const { pathname, hash } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (hash) return;
    document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
  }, [pathname, hash]);
}
