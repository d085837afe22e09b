// Maps an API path to the service that owns it (contracts' API_OWNERS).
import { API_OWNERS, MAX_LEAK_UPLOAD_BYTES, type ServiceName } from '@persona/contracts';

const PREFIXES = Object.entries(API_OWNERS) as Array<[string, ServiceName]>;

/** The API prefixes a service owns (its part of the shared cache). */
export function prefixesOf(owner: ServiceName): string[] {
  return PREFIXES.filter(([, o]) => o === owner).map(([prefix]) => prefix);
}

export function ownerOf(path: string): ServiceName | undefined {
  for (const [prefix, owner] of PREFIXES) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return owner;
  }
  return undefined;
}

const MB = 1024 * 1024;

/**
 * Bodies larger than this are refused at the gateway before they reach a service.
 * Never above the owning service's own limit: a service refusing a body part-way
 * closes the connection, which the proxy could only report as a 503.
 */
export function bodyLimitFor(method: string, path: string, contentType = ''): number {
  // Only uploads are big, and only as multipart (anything else is JSON, read whole by the service).
  if (/^multipart\/form-data/i.test(contentType)) {
    // Book forms carry a cover, images and two PDFs of up to 10 MB each.
    if ((method === 'POST' && path === '/api/books') || (method === 'PUT' && path.startsWith('/api/books/'))) return 64 * MB;
    if (method === 'POST' && path === '/api/personas/verify') return 11 * MB;
    // A leaked copy found in the wild: up to 40 MB (MAX_LEAK_UPLOAD_BYTES), with the form around it.
    if (method === 'POST' && path === '/api/personas/leaks') return MAX_LEAK_UPLOAD_BYTES + MB;
  }
  // Razorpay's events are small; the orders service reads at most 256 KB of one.
  if (method === 'POST' && path === '/api/payments/webhook') return 256 * 1024;
  // A print house's job updates likewise (the orders service reads at most 256 KB of one).
  if (method === 'POST' && path === '/api/print-house/webhook') return 256 * 1024;
  return MB;
}
