// Every route path of the storefront in one place (links and the router use these).
export const paths = {
  home: '/',
  books: '/books',
  book: (id: string) => `/book/${encodeURIComponent(id)}`,
  read: (id: string) => `/read/${encodeURIComponent(id)}`,
  checkout: (id: string) => `/checkout/${encodeURIComponent(id)}`,
  booksSearch: (text: string) => `/books?search=${encodeURIComponent(text)}`,
  sendPersona: '/send-persona',
  contact: '/contact-us',
  faqs: '/faqs',
  shipping: '/shipping',
  about: '/about-us',
  /** The admin app is a separate SPA: linked with a full page load, never the router. */
  admin: '/admin',
  personaExplainer: '#what-is-a-persona',
} as const;

/** Patterns the router matches. */
export const routePatterns = {
  home: '/',
  books: '/books',
  book: '/book/:id',
  read: '/read/:id',
  faqs: '/faqs',
  shipping: '/shipping',
  about: '/about-us',
  notFound: '*',
} as const;
