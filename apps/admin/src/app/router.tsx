// Route table of the admin app: /admin/login is open, everything else sits behind the guard
// and the side-menu layout. Pages are lazily loaded chunks.
import { lazy } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { onUnauthorized } from '@persona/web-kit/api-client';
import { clearAdminSession } from '@persona/web-kit/admin-session';
import { ADMIN_BASENAME, paths, routePatterns } from '../config/paths';
import { AdminLayout } from './routes/admin-layout';
import { RequireAdmin } from './routes/require-admin';
import { RouteError } from './routes/route-error';

const LoginPage = lazy(() => import('../features/auth/components/login-page').then((m) => ({ default: m.LoginPage })));
const DashboardPage = lazy(() => import('../features/dashboard/components/dashboard-page').then((m) => ({ default: m.DashboardPage })));
const BooksPage = lazy(() => import('../features/books/components/books-page').then((m) => ({ default: m.BooksPage })));
const BookFormPage = lazy(() => import('../features/books/components/book-form-page').then((m) => ({ default: m.BookFormPage })));
const CategoriesPage = lazy(() => import('../features/categories/components/categories-page').then((m) => ({ default: m.CategoriesPage })));
const OrdersPage = lazy(() => import('../features/orders/components/orders-page').then((m) => ({ default: m.OrdersPage })));
const OrderPage = lazy(() => import('../features/orders/components/order-page').then((m) => ({ default: m.OrderPage })));
const CouponsPage = lazy(() => import('../features/coupons/components/coupons-page').then((m) => ({ default: m.CouponsPage })));
const FeedbackPage = lazy(() => import('../features/feedback/components/feedback-page').then((m) => ({ default: m.FeedbackPage })));
const LeaksPage = lazy(() => import('../features/leaks/components/leaks-page').then((m) => ({ default: m.LeaksPage })));
const SubscribersPage = lazy(() => import('../features/subscribers/components/subscribers-page').then((m) => ({ default: m.SubscribersPage })));
const ReportsPage = lazy(() => import('../features/reports/components/reports-page').then((m) => ({ default: m.ReportsPage })));
const AuditPage = lazy(() => import('../features/audit/components/audit-page').then((m) => ({ default: m.AuditPage })));
const NotFoundPage = lazy(() => import('./routes/not-found').then((m) => ({ default: m.NotFoundPage })));

const router = createBrowserRouter(
  [
    {
      errorElement: <RouteError />,
      children: [
        { path: routePatterns.login, element: <LoginPage /> },
        {
          element: (
            <RequireAdmin>
              <AdminLayout />
            </RequireAdmin>
          ),
          children: [
            { index: true, element: <DashboardPage /> },
            { path: routePatterns.books, element: <BooksPage /> },
            { path: routePatterns.newBook, element: <BookFormPage /> },
            { path: routePatterns.editBook, element: <BookFormPage /> },
            { path: routePatterns.categories, element: <CategoriesPage /> },
            { path: routePatterns.orders, element: <OrdersPage /> },
            { path: routePatterns.order, element: <OrderPage /> },
            { path: routePatterns.coupons, element: <CouponsPage /> },
            { path: routePatterns.feedbacks, element: <FeedbackPage /> },
            { path: routePatterns.leaks, element: <LeaksPage /> },
            { path: routePatterns.subscribers, element: <SubscribersPage /> },
            { path: routePatterns.reports, element: <ReportsPage /> },
            { path: routePatterns.audit, element: <AuditPage /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ],
  { basename: ADMIN_BASENAME },
);

// A 401 from any call means the token is expired, revoked or forged: forget it and log in again.
onUnauthorized(() => {
  clearAdminSession();
  if (router.state.location.pathname !== paths.login) void router.navigate(paths.login, { replace: true, state: { sessionEnded: true } });
});

export function AppRouter() {
  return <RouterProvider router={router} />;
}
