// Route tables shared across the system.

/**
 * Every page the storefront renders. The gateway answers these with 200 and
 * anything else with the SPA's 404 page (status 404, noindex). Add a page here
 * when the storefront gains one.
 */
export const STOREFRONT_PAGES = [
  '/',
  '/books',
  '/book/:id',
  '/read/:id',
  '/faqs',
  '/shipping',
  '/refund-policy',
  '/privacy-policy',
  '/terms',
  '/about-us',
  '/contact-us',
  '/contact-success',
  '/checkout/:id',
  '/payment-success',
  '/payment-failed',
  '/send-persona',
  '/my-personas',
  '/verify',
  '/verify/:personaId',
] as const;

/** True when `path` (no query) matches one of `patterns` (":name" matches one non-empty segment). */
export function matchesPagePattern(path: string, patterns: readonly string[] = STOREFRONT_PAGES): boolean {
  const segments = path.split('/').filter(Boolean);
  return patterns.some((pattern) => {
    const parts = pattern.split('/').filter(Boolean);
    return parts.length === segments.length && parts.every((p, i) => p.startsWith(':') || p === segments[i]);
  });
}

/** Which service owns which API prefix (DESIGN §1, §6). The gateway proxies by this table. */
export const API_OWNERS = {
  '/api/books': 'catalogue',
  '/api/tags': 'catalogue',
  '/api/categories': 'catalogue',
  '/api/files': 'catalogue',
  '/api/payments': 'orders',
  '/api/orders': 'orders',
  '/api/library': 'orders',
  '/api/coupons': 'orders',
  // A print house's status webhooks (issue 27).
  '/api/print-house': 'orders',
  '/api/personas': 'personalization',
  // The public log of Personas (issue 27): its checkpoint, tiles and entry bundles, as static files.
  '/api/log': 'personalization',
  '/api/admin': 'admin',
  '/api/feedback': 'admin',
  '/api/newsletter': 'admin',
} as const;
export type ServiceName = (typeof API_OWNERS)[keyof typeof API_OWNERS];

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Routes that need an admin token (DESIGN §6, §7). The gateway refuses them
 * without one; the owning service checks again.
 */
export const ADMIN_ROUTES: ReadonlyArray<{ methods: readonly Method[]; pattern: RegExp }> = [
  { methods: ['POST', 'PUT', 'PATCH', 'DELETE'], pattern: /^\/api\/(books|categories)(\/|$)/ },
  { methods: ['GET'], pattern: /^\/api\/books\/[^/]+\/content$/ },
  { methods: ['POST'], pattern: /^\/api\/orders\/[^/]+\/persona\/retry$/ },
  { methods: ['GET'], pattern: /^\/api\/orders\/?$/ },
  { methods: ['GET'], pattern: /^\/api\/orders\/(export|dispatch-list|summary)$/ },
  { methods: ['PATCH'], pattern: /^\/api\/orders\/[^/]+\/status$/ },
  // The order page (issue 23): the whole order, notes, e-mail copies, refunds.
  { methods: ['GET'], pattern: /^\/api\/orders\/[^/]+\/detail$/ },
  { methods: ['POST'], pattern: /^\/api\/orders\/[^/]+\/(notes|refunds|emails\/[^/]+\/resend)$/ },
  // The owner's monthly reports (issue 23): the GST return and the settlement reconciliation.
  { methods: ['GET'], pattern: /^\/api\/orders\/reports\// },
  // After the sale (issue 23): a Persona re-issued, a printed copy cancelled before dispatch.
  { methods: ['POST'], pattern: /^\/api\/orders\/[^/]+\/(persona\/reissue|print\/cancel)$/ },
  // Coupon codes (issue 23): the owner's list, codes and redemptions; pricing a code (POST /api/coupons/price) is the checkout's, public.
  { methods: ['GET'], pattern: /^\/api\/coupons(\/[^/]+\/redemptions)?\/?$/ },
  { methods: ['POST'], pattern: /^\/api\/coupons\/?$/ },
  { methods: ['PUT'], pattern: /^\/api\/coupons\/[^/]+$/ },
  { methods: ['GET', 'DELETE'], pattern: /^\/api\/feedback\/(all|[^/]+)$/ },
  // A visitor's message marked handled, or answered by e-mail (issue 24); sending one (POST /api/feedback) is public.
  { methods: ['PATCH'], pattern: /^\/api\/feedback\/[^/]+$/ },
  { methods: ['POST'], pattern: /^\/api\/feedback\/[^/]+\/answer$/ },
  { methods: ['POST'], pattern: /^\/api\/personas\/leaks$/ },
  // A Persona's downloads given a fresh allowance or stopped by the owner (issue 24); reading them and renewing by the e-mailed link are public.
  { methods: ['POST'], pattern: /^\/api\/personas\/[^/]+\/downloads\/(reset|revoke)$/ },
  { methods: ['POST'], pattern: /^\/api\/admin\/logout$/ },
  { methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], pattern: /^\/api\/admin\/(?!login$)/ },
];

export function isAdminRoute(method: string, path: string): boolean {
  const m = method.toUpperCase();
  return ADMIN_ROUTES.some((r) => (r.methods as readonly string[]).includes(m) && r.pattern.test(path));
}
