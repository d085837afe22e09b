// Route table: every page is its own lazily loaded chunk.
import { lazy, Suspense } from 'react';
import { createBrowserRouter, Outlet, RouterProvider, ScrollRestoration } from 'react-router-dom';
import { routePatterns } from '../config/paths';
import { RootLayout } from './routes/root-layout';
import { RouteError } from './routes/route-error';
import { PageFallback } from './routes/page-fallback';

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

function Shell() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

const router = createBrowserRouter([
  {
    element: <Shell />,
    errorElement: <RouteError />,
    children: [
      {
        element: <RootLayout />,
        children: [
          { path: routePatterns.home, element: <HomePage /> },
          { path: routePatterns.books, element: <ExplorePage /> },
          { path: routePatterns.book, element: <BookDetailPage /> },
          { path: routePatterns.faqs, element: <FaqsPage /> },
          { path: routePatterns.shipping, element: <ShippingPage /> },
          { path: routePatterns.about, element: <AboutPage /> },
          { path: routePatterns.contact, element: <ContactPage /> },
          { path: routePatterns.contactSuccess, element: <ContactSuccessPage /> },
          { path: routePatterns.checkout, element: <CheckoutPage /> },
          { path: routePatterns.paymentSuccess, element: <PaymentSuccessPage /> },
          { path: routePatterns.paymentFailed, element: <PaymentFailedPage /> },
          { path: routePatterns.sendPersona, element: <SendPersonaPage /> },
          { path: routePatterns.verify, element: <VerifyPersonaPage /> },
          { path: routePatterns.verifyPersona, element: <VerifyPersonaPage /> },
          { path: routePatterns.notFound, element: <NotFoundRoute /> },
        ],
      },
      {
        // The reader is a full-screen page with its own bars.
        path: routePatterns.read,
        element: (
          <Suspense fallback={<PageFallback />}>
            <ReaderPage />
          </Suspense>
        ),
      },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
