// What the catalogue's routes are given (built once by app.ts): its own file, so a route never imports app.ts.
import type { UnitOfWork } from '@persona/bus';
import type { UntrustedPool } from '@persona/untrusted';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { CatalogueDB } from './db';
import type { BookCache } from './modules/books/book-cache';
import type { FileStorage } from './modules/files/file-storage';
import type { UploadTasks } from './modules/files/upload-tasks';

export interface CatalogueDeps {
  db: Kysely<CatalogueDB>;
  storage: FileStorage;
  cache: BookCache;
  adminOnly: onRequestAsyncHookHandler;
  uow: UnitOfWork<CatalogueDB>;
  uploadChecks: UntrustedPool<UploadTasks>;
  uploadsDir: string;
}
