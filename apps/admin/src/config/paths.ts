// Every route of the admin app, relative to its basename /admin (the gateway serves the app there).
export const ADMIN_BASENAME = '/admin';

export const paths = {
  login: '/login',
  dashboard: '/',
  books: '/books',
  newBook: '/books/new',
  editBook: (id: string) => `/books/${encodeURIComponent(id)}/edit`,
  categories: '/categories',
  orders: '/orders',
  order: (id: string) => `/orders/${encodeURIComponent(id)}`,
  coupons: '/coupons',
  feedbacks: '/feedbacks',
  leaks: '/leaks',
  subscribers: '/subscribers',
  reports: '/reports',
  audit: '/audit',
} as const;

export const routePatterns = {
  login: 'login',
  books: 'books',
  newBook: 'books/new',
  editBook: 'books/:id/edit',
  categories: 'categories',
  orders: 'orders',
  order: 'orders/:id',
  coupons: 'coupons',
  feedbacks: 'feedbacks',
  leaks: 'leaks',
  subscribers: 'subscribers',
  reports: 'reports',
  audit: 'audit',
} as const;

/** The storefront is another app: reached with a full page load. */
export const STOREFRONT_HOME = '/';
