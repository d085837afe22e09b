// A buyer's library without a password (DESIGN §12). Asking for a link answers the same whether
// the address has Personas or not (no one learns who bought here); a link goes out only to an
// address with a paid order, at most LINKS_PER_ADDRESS per window. A link opens the library once,
// within LIBRARY_LINK_MINUTES, and opens a session of LIBRARY_SESSION_MINUTES (a reload keeps it).
// Tokens are 32 random bytes, kept only as their SHA-256.
import { createHash, randomBytes } from 'node:crypto';
import { LIBRARY_LINK_MINUTES, LIBRARY_SESSION_MINUTES, type Library } from '@persona/contracts';
import { HttpError } from '@persona/service-kit';
import type { Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import { queueEmail, type ShopMail } from '../mail/emails.repository';
import { libraryLinkEmail } from '../mail/order-emails';
import { toLibraryPersona } from './library.mapper';
import * as repo from './library.repository';

/** Links one address may be sent per LIBRARY_LINK_MINUTES. */
export const LINKS_PER_ADDRESS = 3;

const MINUTE = 60_000;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

export interface LibraryContext {
  db: Kysely<OrdersDB>;
  shop: ShopMail;
  correlationId: string;
}

/** Sends a sign-in link when the address has Personas; answers nothing either way. */
export async function requestLibraryLink(ctx: LibraryContext, typedEmail: string): Promise<void> {
  const email = typedEmail.trim().toLowerCase();
  const now = Date.now();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.hasPaidOrders(trx, email))) return;
    if ((await repo.linksSentSince(trx, email, new Date(now - LIBRARY_LINK_MINUTES * MINUTE))) >= LINKS_PER_ADDRESS) return;
    const token = newToken();
    await repo.insertToken(trx, { hash: hashOf(token), kind: 'link', email, expiresAt: new Date(now + LIBRARY_LINK_MINUTES * MINUTE) });
    await queueEmail(trx, libraryLinkEmail(email, `${ctx.shop.publicUrl}/my-personas#token=${token}`, ctx.shop, ctx.correlationId));
  });
}

const CLOSED = 'This sign-in link has expired or was already used. Ask for a new one.';

/** The library a link (used now) or an open session shows, with the session that keeps it open. */
export async function openLibrary(db: Kysely<OrdersDB>, token: string): Promise<Library> {
  const hash = hashOf(token);
  let email: string;
  let session: Library['session'];
  const link = await repo.useLink(db, hash);
  if (link) {
    email = link.email;
    const sessionToken = newToken();
    const expiresAt = new Date(Date.now() + LIBRARY_SESSION_MINUTES * MINUTE);
    await repo.insertToken(db, { hash: hashOf(sessionToken), kind: 'session', email, expiresAt });
    session = { token: sessionToken, expiresAt: expiresAt.toISOString() };
  } else {
    const open = await repo.findSession(db, hash);
    if (!open) throw new HttpError(401, CLOSED, 'LIBRARY_LINK_CLOSED');
    email = open.email;
    session = { token, expiresAt: open.expires_at.toISOString() };
  }
  const orders = await repo.paidOrdersOf(db, email);
  const documents = await repo.documentsOf(
    db,
    orders.map((row) => row.id),
  );
  return { email, personas: orders.map((row) => toLibraryPersona(row, email, documents.get(row.id))), session };
}
