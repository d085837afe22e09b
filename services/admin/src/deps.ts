// What the admin's routes are given (built once by app.ts): its own file, so a route never imports app.ts.
import type { UnitOfWork } from '@persona/bus';
import type { ReadRouter } from '@persona/db';
import type { SessionCache } from '@persona/service-kit';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { AdminDB } from './db';
import type { tokenSigner } from './modules/auth/sessions';
import type { BookTitleReader } from './modules/feedback/catalogue-client';

export interface AdminDeps {
  db: Kysely<AdminDB>;
  /** The administrator's lists: `readLatest` (the replica once it holds every commit made before the request). */
  reads: ReadRouter<AdminDB>;
  uow: UnitOfWork<AdminDB>;
  adminOnly: onRequestAsyncHookHandler;
  sign: ReturnType<typeof tokenSigner>;
  internalToken: string;
  /** The title of the book a message is about (the catalogue's). */
  bookTitles: BookTitleReader;
  loginRateLimit: { max: number; timeWindow: string };
  publicRateLimit: { max: number; timeWindow: string };
  countCap?: number;
  /** REDIS_URL: the session answers every replica shares; a logout marks its session revoked there at once. */
  sessions?: SessionCache;
}
