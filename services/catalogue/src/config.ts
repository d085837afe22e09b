// The catalogue's configuration, the only reader of its environment in either
// run mode: its own process (server.ts) and the embedded shop both build the
// service's options from `catalogueServiceOptions`.
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { adminTokenOptions, CommonConfig, FileStoreSettings, s3Settings, serviceConfig, ServiceSettings, sharedServiceOptions } from '@persona/service-kit';
import { fileCheckOptions, FileCheckSettings } from '@persona/untrusted/settings';
import type { CatalogueServiceOptions } from './service';

/** What the service needs in either run mode (`catalogueConfig.settings`, `loadSettings`), and its own process's schema (the settings, where it listens, what it runs on: `process`, `loadProcess`). */
export const catalogueConfig = serviceConfig(
  Type.Object({
    ...ServiceSettings,
    JWT_SECRET: CommonConfig.JWT_SECRET,
    ADMIN_URL: CommonConfig.ADMIN_URL,
    /** Where uploaded files are kept (and uploads spooled as they arrive). */
    FILES_DIR: Type.String({ default: path.resolve('data/files') }),
    /** Or S3 (FILE_STORE=s3, under S3_PREFIX + "catalogue/"), which every replica reads. */
    ...FileStoreSettings,
    /** Shared secret the personalisation service sends to read a book's full text or PDF. */
    INTERNAL_TOKEN: Type.Optional(Type.String({ minLength: 32 })),
    /** Seed the demo catalogue into an empty database on first start. */
    SEED_DEMO: Type.Boolean({ default: true }),
    /** Threads judging uploaded covers, pictures and PDFs, with their heap, time limit and queue. */
    ...FileCheckSettings,
  }),
  3001,
);
export type CatalogueSettings = Static<typeof catalogueConfig.settings>;
export type CatalogueConfig = Static<typeof catalogueConfig.process>;

/** The service's options from its settings; the run mode adds the database, the bus and the logger. */
export function catalogueServiceOptions(settings: CatalogueSettings): Omit<CatalogueServiceOptions, 'database' | 'bus' | 'logger'> {
  return {
    ...sharedServiceOptions(settings),
    ...adminTokenOptions(settings),
    filesDir: settings.FILES_DIR,
    filesS3: s3Settings(settings),
    seedDemo: settings.SEED_DEMO,
    internalToken: settings.INTERNAL_TOKEN,
    uploadChecks: fileCheckOptions(settings),
  };
}
