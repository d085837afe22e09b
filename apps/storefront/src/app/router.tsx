// Route table: every page is its own lazily loaded chunk. Declarative routes (no data
// router): the storefront loads its data in its pages, and this keeps react-router's
// share of the first download small (DESIGN §8: small route-split bundles).
import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { routePatterns } from '../config/paths';
import { RootLayout } from './routes/root-layout';
import { RouteErrorBoundary } from './routes/route-error-boundary';
import { PageFallback } from './routes/page-fallback';
import { useScrollRestoration } from './scroll/use-scroll-restoration';

const HomePage = lazy(() => import('../features/home/components/home-page').then((m) => ({ default: m.HomePage })));
const ExplorePage = lazy(() => import('../features/explore/components/explore-page').then((m) => ({ default: m.ExplorePage })));
const BookDetailPage = lazy(() => import('../features/book-detail/components/book-detail-page').then((m) => ({ default: m.BookDetailPage })));
const ReaderPage = lazy(() => import('../features/reader/components/reader-page').then((m) => ({ default: m.ReaderPage })));
const FaqsPage = lazy(() => import('../features/info-pages/components/faqs-page').then((m) => ({ default: m.FaqsPage })));
const ShippingPage = lazy(() => import('../features/info-pages/components/shipping-page').then((m) => ({ default: m.ShippingPage })));
const AboutPage = lazy(() => import('../features/info-pages/components/about-page').then((m) => ({ default: m.AboutPage })));
const ContactPage = lazy(() => import('../features/contact/components/contact-page').then((m) => ({ default: m.ContactPage })));
const ContactSuccessPage = lazy(() => import('../features/contact/components/contact-success-page').then((m) => ({ default: m.ContactSuccessPage })));
const CheckoutPage = lazy(() => import('../features/checkout/components/checkout-page').then((m) => ({ default: m.CheckoutPage })));
const PaymentSuccessPage = lazy(() => import('../features/payment-result/components/payment-success-page').then((m) => ({ default: m.PaymentSuccessPage })));
const PaymentFailedPage = lazy(() => import('../features/payment-result/components/payment-failed-page').then((m) => ({ default: m.PaymentFailedPage })));
const SendPersonaPage = lazy(() => import('../features/send-persona/components/send-persona-page').then((m) => ({ default: m.SendPersonaPage })));
const VerifyPersonaPage = lazy(() => import('../features/verify-persona/components/verify-persona-page').then((m) => ({ default: m.VerifyPersonaPage })));
const NotFoundRoute = lazy(() => import('./routes/not-found').then((m) => ({ default: m.NotFoundRoute })));

function ScrollRestoration() {
  useScrollRestoration();
  return null;
}

function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route path={routePatterns.home} element={<HomePage />} />
        <Route path={routePatterns.books} element={<ExplorePage />} />
        <Route path={routePatterns.book} element={<BookDetailPage />} />
        <Route path={routePatterns.faqs} element={<FaqsPage />} />
        <Route path={routePatterns.shipping} element={<ShippingPage />} />
        <Route path={routePatterns.about} element={<AboutPage />} />
        <Route path={routePatterns.contact} element={<ContactPage />} />
        <Route path={routePatterns.contactSuccess} element={<ContactSuccessPage />} />
        <Route path={routePatterns.checkout} element={<CheckoutPage />} />
        <Route path={routePatterns.paymentSuccess} element={<PaymentSuccessPage />} />
        <Route path={routePatterns.paymentFailed} element={<PaymentFailedPage />} />
        <Route path={routePatterns.sendPersona} element={<SendPersonaPage />} />
        <Route path={routePatterns.verify} element={<VerifyPersonaPage />} />
        <Route path={routePatterns.verifyPersona} element={<VerifyPersonaPage />} />
        <Route path={routePatterns.notFound} element={<NotFoundRoute />} />
      </Route>
      {/* The reader is a full-screen page with its own bars. */}
      <Route
        path={routePatterns.read}
        element={
          <Suspense fallback={<PageFallback />}>
            <ReaderPage />
          </Suspense>
        }
      />
    </Routes>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <ScrollRestoration />
      <RouteErrorBoundary>
        <AppRoutes />
      </RouteErrorBoundary>
    </BrowserRouter>
  );
}
