// Maps an API path to the service that owns it (contracts' API_OWNERS).
import { API_OWNERS, type ServiceName } from '@persona/contracts';

const PREFIXES = Object.entries(API_OWNERS) as Array<[string, ServiceName]>;

export function ownerOf(path: string): ServiceName | undefined {
  for (const [prefix, owner] of PREFIXES) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return owner;
  }
  return undefined;
}

/** Bodies larger than this are refused at the gateway before they reach a service. */
export function bodyLimitFor(method: string, path: string): number {
  // Book forms carry a cover, images and two PDFs of up to 10 MB each.
  if ((method === 'POST' && path === '/api/books') || (method === 'PUT' && path.startsWith('/api/books/'))) return 64 * 1024 * 1024;
  if (method === 'POST' && path === '/api/personas/verify') return 11 * 1024 * 1024;
  return 1024 * 1024;
}
