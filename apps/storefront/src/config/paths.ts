// Every route path of the storefront in one place (links and the router use these).
export const paths = {
  home: '/',
  books: '/books',
  book: (id: string) => `/book/${encodeURIComponent(id)}`,
  read: (id: string) => `/read/${encodeURIComponent(id)}`,
  checkout: (id: string) => `/checkout/${encodeURIComponent(id)}`,
  booksSearch: (text: string) => `/books?search=${encodeURIComponent(text)}`,
  paymentSuccess: '/payment-success',
  paymentFailed: '/payment-failed',
  /** Where a verified payment lands (DESIGN §10: the persona id travels with it). */
  paymentSuccessFor: (personaId: string, orderId: string) => `/payment-success?${new URLSearchParams({ personaId, orderId }).toString()}`,
  /** Where a failed or declined payment lands, with a way back to the same book (DESIGN §9.10). */
  paymentFailedFor: (bookId: string) => `/payment-failed?${new URLSearchParams({ book: bookId }).toString()}`,
  sendPersona: '/send-persona',
  sendPersonaFor: (personaId: string) => `/send-persona?${new URLSearchParams({ personaId }).toString()}`,
  /** The buyer's library: every Persona of an e-mail address, by a sign-in link (DESIGN §12). */
  myPersonas: '/my-personas',
  verify: '/verify',
  verifyPersona: (personaId: string) => `/verify/${encodeURIComponent(personaId)}`,
  contact: '/contact-us',
  /** Where a sent contact message lands. */
  contactSuccess: '/contact-success',
  faqs: '/faqs',
  shipping: '/shipping',
  refunds: '/refund-policy',
  privacy: '/privacy-policy',
  terms: '/terms',
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
  refunds: '/refund-policy',
  privacy: '/privacy-policy',
  terms: '/terms',
  about: '/about-us',
  contact: '/contact-us',
  contactSuccess: '/contact-success',
  checkout: '/checkout/:id',
  paymentSuccess: '/payment-success',
  paymentFailed: '/payment-failed',
  sendPersona: '/send-persona',
  myPersonas: '/my-personas',
  verify: '/verify',
  verifyPersona: '/verify/:personaId',
  notFound: '*',
} as const;
