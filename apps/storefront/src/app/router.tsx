// Route table: every page is its own lazily loaded chunk. Declarative routes (no data
// router): pages read their data through useApiData, which the server's render fills
// beforehand (route-data.ts), and this keeps react-router's share of the first download
// small (DESIGN §8: small route-split bundles).
import { Suspense, type ReactNode } from 'react';
import { matchPath, Route, Routes } from 'react-router-dom';
import { routePatterns } from '../config/paths';
import { lazyPage, type LazyPage } from './lazy-page';
import { PageFallback } from './routes/page-fallback';
import { RootLayout } from './routes/root-layout';
import { RouteErrorBoundary } from './routes/route-error-boundary';
import { useScrollRestoration } from './scroll/use-scroll-restoration';

const page = (load: () => Promise<Record<string, unknown>>, name: string, moduleId: string) =>
  lazyPage(() => load().then((m) => m[name] as () => React.JSX.Element), moduleId);

/** The pages inside the shared layout, in the order the router tries them. */
export const LAYOUT_PAGES: ReadonlyArray<{ pattern: string; page: LazyPage }> = [
  { pattern: routePatterns.home, page: page(() => import('../features/home/components/home-page'), 'HomePage', 'src/features/home/components/home-page.tsx') },
  {
    pattern: routePatterns.books,
    page: page(() => import('../features/explore/components/explore-page'), 'ExplorePage', 'src/features/explore/components/explore-page.tsx'),
  },
  {
    pattern: routePatterns.book,
    page: page(
      () => import('../features/book-detail/components/book-detail-page'),
      'BookDetailPage',
      'src/features/book-detail/components/book-detail-page.tsx',
    ),
  },
  {
    pattern: routePatterns.faqs,
    page: page(() => import('../features/info-pages/components/faqs-page'), 'FaqsPage', 'src/features/info-pages/components/faqs-page.tsx'),
  },
  {
    pattern: routePatterns.shipping,
    page: page(() => import('../features/info-pages/components/shipping-page'), 'ShippingPage', 'src/features/info-pages/components/shipping-page.tsx'),
  },
  {
    pattern: routePatterns.refunds,
    page: page(() => import('../features/info-pages/components/policy-page'), 'RefundsPage', 'src/features/info-pages/components/policy-page.tsx'),
  },
  {
    pattern: routePatterns.privacy,
    page: page(() => import('../features/info-pages/components/policy-page'), 'PrivacyPage', 'src/features/info-pages/components/policy-page.tsx'),
  },
  {
    pattern: routePatterns.terms,
    page: page(() => import('../features/info-pages/components/policy-page'), 'TermsPage', 'src/features/info-pages/components/policy-page.tsx'),
  },
  {
    pattern: routePatterns.about,
    page: page(() => import('../features/info-pages/components/about-page'), 'AboutPage', 'src/features/info-pages/components/about-page.tsx'),
  },
  {
    pattern: routePatterns.contact,
    page: page(() => import('../features/contact/components/contact-page'), 'ContactPage', 'src/features/contact/components/contact-page.tsx'),
  },
  {
    pattern: routePatterns.contactSuccess,
    page: page(
      () => import('../features/contact/components/contact-success-page'),
      'ContactSuccessPage',
      'src/features/contact/components/contact-success-page.tsx',
    ),
  },
  {
    pattern: routePatterns.checkout,
    page: page(() => import('../features/checkout/components/checkout-page'), 'CheckoutPage', 'src/features/checkout/components/checkout-page.tsx'),
  },
  {
    pattern: routePatterns.paymentSuccess,
    page: page(
      () => import('../features/payment-result/components/payment-success-page'),
      'PaymentSuccessPage',
      'src/features/payment-result/components/payment-success-page.tsx',
    ),
  },
  {
    pattern: routePatterns.paymentFailed,
    page: page(
      () => import('../features/payment-result/components/payment-failed-page'),
      'PaymentFailedPage',
      'src/features/payment-result/components/payment-failed-page.tsx',
    ),
  },
  {
    pattern: routePatterns.sendPersona,
    page: page(
      () => import('../features/send-persona/components/send-persona-page'),
      'SendPersonaPage',
      'src/features/send-persona/components/send-persona-page.tsx',
    ),
  },
  {
    pattern: routePatterns.myPersonas,
    page: page(
      () => import('../features/my-personas/components/my-personas-page'),
      'MyPersonasPage',
      'src/features/my-personas/components/my-personas-page.tsx',
    ),
  },
  {
    pattern: routePatterns.verify,
    page: page(
      () => import('../features/verify-persona/components/verify-persona-page'),
      'VerifyPersonaPage',
      'src/features/verify-persona/components/verify-persona-page.tsx',
    ),
  },
  {
    pattern: routePatterns.verifyPersona,
    page: page(
      () => import('../features/verify-persona/components/verify-persona-page'),
      'VerifyPersonaPage',
      'src/features/verify-persona/components/verify-persona-page.tsx',
    ),
  },
  { pattern: routePatterns.notFound, page: page(() => import('./routes/not-found'), 'NotFoundRoute', 'src/app/routes/not-found.tsx') },
];

/** The reader is a full-screen page with its own bars. */
export const READER_PAGE = page(() => import('../features/reader/components/reader-page'), 'ReaderPage', 'src/features/reader/components/reader-page.tsx');

/** The page that renders `pathname`. */
export function pageFor(pathname: string): LazyPage {
  if (matchPath(routePatterns.read, pathname)) return READER_PAGE;
  return LAYOUT_PAGES.find(({ pattern }) => pattern !== routePatterns.notFound && matchPath(pattern, pathname))?.page ?? LAYOUT_PAGES.at(-1)!.page;
}

function ScrollRestoration() {
  useScrollRestoration();
  return null;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        {LAYOUT_PAGES.map(({ pattern, page: Page }) => (
          <Route key={pattern} path={pattern} element={<Page />} />
        ))}
      </Route>
      <Route
        path={routePatterns.read}
        element={
          <Suspense fallback={<PageFallback />}>
            <READER_PAGE />
          </Suspense>
        }
      />
    </Routes>
  );
}

/** Everything inside the router: scroll restoration and the error boundary around the pages. */
export function AppRouter({ children }: { children?: ReactNode }) {
  return (
    <>
      <ScrollRestoration />
      <RouteErrorBoundary>
        <AppRoutes />
      </RouteErrorBoundary>
      {children}
    </>
  );
}
