// The address of the client behind a request, for per-client rate limits.
// Behind the gateway every request comes from the gateway's own address, so a
// limit keyed by the socket would be one bucket for the whole shop: one
// visitor could use up everybody's lookups and logins. The gateway sets
// X-Forwarded-For to the client it saw; that header is believed only from a
// loopback or private-network peer (where the gateway runs), never from the
// internet.
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

const PROXIES = new BlockList();
PROXIES.addSubnet('127.0.0.0', 8, 'ipv4');
PROXIES.addSubnet('10.0.0.0', 8, 'ipv4');
PROXIES.addSubnet('172.16.0.0', 12, 'ipv4');
PROXIES.addSubnet('192.168.0.0', 16, 'ipv4');
PROXIES.addAddress('::1', 'ipv6');
PROXIES.addSubnet('fc00::', 7, 'ipv6');

function isProxy(address: string): boolean {
  const v4 = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const family = isIP(v4);
  return family !== 0 && PROXIES.check(v4, family === 4 ? 'ipv4' : 'ipv6');
}

/** The client's address: the one the gateway forwarded when the request comes from it, else the peer's. */
export function clientAddress(request: FastifyRequest): string {
  const peer = request.socket?.remoteAddress ?? request.ip;
  const forwarded = request.headers['x-forwarded-for'];
  if (typeof forwarded === 'string' && isProxy(peer)) {
    const last = forwarded.split(',').pop()!.trim();
    if (isIP(last)) return last;
  }
  return request.ip;
}
