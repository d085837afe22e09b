// The security headers for every answer. helmet decides them; since ours
// never vary per request, they are computed once at start-up by running
// helmet against a stand-in response, instead of helmet re-parsing the
// content security policy on every request.
import helmet, { type HelmetOptions } from 'helmet';

export function computeSecurityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
    getHeader(name: string) {
      return headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as never, res as never, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * The set for API answers (JSON and files), after OWASP's REST Security Cheat Sheet: nothing
 * in them may run or be framed (`default-src 'none'; frame-ancestors 'none'`, DENY), no
 * sniffing, same-origin reads, HTTPS only, no referrer. The document-only headers (opener
 * policy, agent cluster, DNS prefetch, the IE and Flash ones) say nothing about JSON and
 * are left to the pages, so every API answer carries half the header bytes.
 */
export function computeApiSecurityHeaders(): Record<string, string> {
  return computeSecurityHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    originAgentCluster: false,
    referrerPolicy: { policy: 'no-referrer' },
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
}
