// Builds the catalogue's Fastify instance: external plugins, then our routes.
import os from 'node:os';
import path from 'node:path';
import multipart from '@fastify/multipart';
import { createUnitOfWork } from '@persona/bus';
import { BOOK_LIMITS } from '@persona/contracts';
import { type AdminVerifier, type AppBaseOptions, baseServiceOptions, createServiceApp, requireAdmin, type ServiceApp } from '@persona/service-kit';
import { servicePool, type UntrustedPool, type UntrustedPoolOptions } from '@persona/untrusted';
import type { ReadRouter } from '@persona/db';
import type { Kysely } from 'kysely';
import type { CatalogueDB } from './db';
import type { CatalogueDeps } from './deps';
import { BookCache } from './modules/books/book-cache';
import type { FileStorage } from './modules/files/file-storage';
import type { UploadTasks } from './modules/files/upload-tasks';
import bookRoutes, { bookContentRoute } from './routes/books';
import categoryRoutes from './routes/categories';
import fileRoutes from './routes/files';
import internalRoutes from './routes/internal';
import tagRoutes from './routes/tags';

export interface CatalogueAppOptions extends AppBaseOptions {
  db: Kysely<CatalogueDB>;
  /** Where the public reads go (the database: its read replica when DATABASE_READ_URL is set); the primary without it. */
  reads?: ReadRouter<CatalogueDB>;
  storage: FileStorage;
  verifier: AdminVerifier;
  /** Shared secret of the internal routes; without it they are not mounted. */
  internalToken?: string;
  /** Where uploads are written as they arrive, until stored or refused (default: `.incoming` beside the files, when the storage is on disk). */
  uploadsDir?: string;
  /** The untrusted-file threads judging uploads (FILE_CHECK_*; defaults when omitted), or a pool of them; closed with the app. */
  uploadChecks?: Omit<UntrustedPoolOptions, 'module'> | UntrustedPool<UploadTasks>;
}

export async function buildApp(options: CatalogueAppOptions): Promise<ServiceApp> {
  const app = createServiceApp(baseServiceOptions('catalogue', options));
  await app.register(multipart, {
    limits: {
      fileSize: BOOK_LIMITS.fileMaxBytes,
      files: 2 + BOOK_LIMITS.imagesMax + 1,
      fields: 20,
      fieldSize: 4 * 1024 * 1024,
      parts: 40,
      headerPairs: 100,
    },
  });
  const cache = new BookCache(options.db, { reads: options.reads });
  const uploadChecks = servicePool<UploadTasks>(require.resolve('./modules/files/upload-tasks'), options.uploadChecks);
  app.addHook('onClose', () => uploadChecks.close());
  const deps: CatalogueDeps = {
    db: options.db,
    storage: options.storage,
    cache,
    adminOnly: requireAdmin(options.verifier),
    // Read your own writes: a committed change drops the cached answers before anyone reads again.
    uow: createUnitOfWork({ db: options.db, relay: options.relay, afterCommit: () => cache.invalidate(), reads: options.reads }),
    uploadChecks,
    uploadsDir: options.uploadsDir ?? path.join(os.tmpdir(), 'persona-uploads'),
  };
  await app.register(async (scope) => {
    await bookRoutes(scope as ServiceApp, deps);
    await bookContentRoute(scope as ServiceApp, deps);
    await tagRoutes(scope as ServiceApp, deps);
    await categoryRoutes(scope as ServiceApp, deps);
    await fileRoutes(scope as ServiceApp, deps);
    if (options.internalToken) await internalRoutes(scope as ServiceApp, { ...deps, internalToken: options.internalToken });
  });
  return app;
}
