// PUBLIC_URL is printed for good: in every Persona's QR code and links (a signed, permanent copy)
// and in every e-mail. An address only this machine or this network reaches (localhost, 127.x,
// ::1, *.local, a private or link-local address) must never be sold under: the orders service
// refuses live payments with one, and the personalisation service warns at start.
import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

function isPrivateIpv4(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number) as [number, number];
  return (
    a === 127 ||
    a === 10 ||
    a === 0 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

function isPrivateIpv6(ip: string): boolean {
  const v6 = ip.toLowerCase();
  if (v6 === '::1' || v6 === '::') return true;
  // An IPv4 address written as IPv6 (the URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (mapped) {
    const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return isPrivateIpv4(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  // fc00::/7 (unique local) and fe80::/10 (link-local).
  return /^f[cd][0-9a-f]{0,2}:/.test(v6) || /^fe[89ab][0-9a-f]?:/.test(v6);
}

/**
 * Why `url` is not a public address buyers can reach (a sentence naming it), or null when it is.
 * A name without a dot (a machine's name on a network) counts as local.
 */
export function localUrlProblem(url: string | undefined): string | null {
  if (!url) return 'PUBLIC_URL is not set';
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return `PUBLIC_URL (${url}) is not an address`;
  }
  const local = isIP(host) === 4 ? isPrivateIpv4(host) : isIP(host) === 6 ? isPrivateIpv6(host) : LOCAL_NAMES.test(host) || !host.includes('.');
  return local ? `PUBLIC_URL (${url}) is a local address that buyers cannot reach` : null;
}

/**
 * The unguessable token of a finished Persona's dedication image (the gift recipient's e-mail shows
 * it): an HMAC of the Persona ID under the services' shared INTERNAL_TOKEN, so the orders service
 * can name it and the personalisation service check it, and nobody without the link can see it.
 */
export function personaImageToken(secret: string, personaId: string): string {
  return createHmac('sha256', secret).update(`dedication-image\0${personaId}`).digest('base64url').slice(0, 32);
}

/** A printed Persona's files (issue 27): the interior and the cover spread. */
export type PrintFile = 'interior' | 'cover';

/**
 * The token of a printed Persona's print file (the dispatch list and the print house fetch it): an
 * HMAC of the Persona ID and the file under INTERNAL_TOKEN, made by the orders service and checked by
 * the personalisation service, as the dedication image's.
 */
export function printFileToken(secret: string, personaId: string, file: PrintFile): string {
  return createHmac('sha256', secret).update(`print-file\0${file}\0${personaId}`).digest('base64url').slice(0, 32);
}

/** Where a printed Persona's print file is fetched, through the shop's public address. */
export function printFileUrl(publicUrl: string, secret: string, personaId: string, file: PrintFile): string {
  return `${publicUrl}/api/personas/${personaId}/print/${file}.pdf?token=${printFileToken(secret, personaId, file)}`;
}
