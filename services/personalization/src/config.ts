// The personalisation service's configuration, the only reader of its
// environment in either run mode: its own process (server.ts) and the
// embedded shop both build the service's options from
// `personalizationServiceOptions`.
import os from 'node:os';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { adminTokenOptions, CommonConfig, FileStoreSettings, s3Settings, serviceConfig, ServiceSettings, sharedServiceOptions } from '@persona/service-kit';
import { fileCheckOptions, FileCheckSettings } from '@persona/untrusted/settings';
import type { PersonalizationServiceOptions } from './service';
import { DEFAULT_PREVIEW_CACHE_MINUTES } from './modules/personas/preview';

/** One core is left to the event loop (the HTTP routes and the consumer); more than four threads gain nothing measured. */
const DEFAULT_PDF_WORKERS = Math.max(1, Math.min(4, os.cpus().length - 1));
/**
 * Previews have threads of their own, so a buyer typing never waits behind a Persona being made:
 * two (one on a single core) kept 10 concurrent typists within 300 ms p95 on 2 cores, where one
 * thread let the queue grow past a second (`npm run bench`, the `preview` group).
 */
const DEFAULT_PREVIEW_WORKERS = Math.max(1, Math.min(2, os.cpus().length));

/** What the service needs in either run mode (`personalizationConfig.settings`, `loadSettings`), and its own process's schema (the settings, where it listens, what it runs on: `process`, `loadProcess`). */
export const personalizationConfig = serviceConfig(
  Type.Object({
    ...ServiceSettings,
    /** Admin tokens (the leak lookup is for administrators). */
    JWT_SECRET: CommonConfig.JWT_SECRET,
    ADMIN_URL: CommonConfig.ADMIN_URL,
    CATALOGUE_URL: Type.String({ pattern: '^https?://' }),
    /** Shared secret for the catalogue's internal routes. */
    INTERNAL_TOKEN: Type.String({ minLength: 32 }),
    /** The address buyers use: the QR code in each Persona opens PUBLIC_URL/verify/<id>. */
    PUBLIC_URL: Type.String({ pattern: '^https?://', default: 'http://localhost:8080' }),
    PERSONAS_DIR: Type.String({ default: path.resolve('data/personas') }),
    /** Where the finished Personas are kept: PERSONAS_DIR, or S3 (FILE_STORE=s3, under S3_PREFIX + "personas/"), which every replica reads. */
    ...FileStoreSettings,
    /** PKCS#8 PEM of the Ed25519 signing key; without it one is generated on first start and kept in the database. */
    SIGNING_KEY_PEM: Type.Optional(Type.String({ minLength: 40 })),
    /**
     * The public log of Personas' signing key (issue 27), a C2SP signed-note key named after the log's
     * origin ("PRIVATE+KEY+<host>/api/log+<id>+<key>"); without it one is generated on first start and
     * kept in the database. Its verifier key is published at /api/personas/public-key.
     */
    LOG_SIGNING_KEY: Type.Optional(Type.String({ pattern: '^PRIVATE\\+KEY\\+' })),
    /** The paper printed Personas are on (issue 27): its thickness a page sets the cover's spine (print-files/print-specs.ts). */
    PRINT_PAPER: Type.Union([Type.Literal('white'), Type.Literal('cream'), Type.Literal('coated')], { default: 'white' }),
    /** Attempts before a Persona is recorded as failed and its message dead-lettered. */
    PERSONA_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 20, default: 5 }),
    /** Back-off between attempts, milliseconds, comma-separated. */
    PERSONA_RETRY_DELAYS_MS: Type.String({ pattern: '^\\d+(,\\d+)*$', default: '1000,5000,15000,30000' }),
    /** Worker threads building PDFs (default: the cores less one, at most four). */
    PDF_WORKERS: Type.Integer({ minimum: 1, maximum: 16, default: DEFAULT_PDF_WORKERS }),
    /** Memory for prepared books in each PDF worker, MB; 0 turns the cache off. */
    PERSONA_PDF_CACHE_MB: Type.Number({ minimum: 0, maximum: 4096, default: 64 }),
    /**
     * Whether each build thread warms up as it starts (build-pool/warm-up.ts: about a second of a core
     * a thread, so that the first Personas and previews after a start are as quick as later ones). Off
     * where starts are many and Personas few: the end-to-end suites' shops, a developer's machine.
     */
    BUILD_WARM_UP: Type.Boolean({ default: true }),
    /** Worker threads drawing dedication page previews (default: two, one on a single core). */
    PREVIEW_WORKERS: Type.Integer({ minimum: 1, maximum: 16, default: DEFAULT_PREVIEW_WORKERS }),
    /** Dedication page previews one client may ask for a minute (about one per key while a name or message is typed). */
    PREVIEWS_PER_MINUTE: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 240 }),
    /** Minutes a drawn preview (a buyer's name and message) is kept, in memory and in Redis, before it is forgotten. */
    PREVIEW_CACHE_MINUTES: Type.Integer({ minimum: 1, maximum: 10_080, default: DEFAULT_PREVIEW_CACHE_MINUTES }),
    /**
     * A Persona's downloads (issue 24): each format this many times, within this many days of its
     * making or of its last fresh allowance. Generous, so no honest buyer meets them (a phone, a
     * tablet, an e-reader and a laptop, each twice, is 8): they stop a printed id becoming a free
     * e-book for everyone who borrows the book, and the buyer can always ask for more by e-mail.
     */
    PERSONA_DOWNLOADS_PER_FORMAT: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
    PERSONA_DOWNLOAD_DAYS: Type.Integer({ minimum: 1, maximum: 36_500, default: 365 }),
    /** Hours the "more downloads" link e-mailed to the buyer stays valid (it works once). */
    PERSONA_DOWNLOAD_RENEWAL_HOURS: Type.Integer({ minimum: 1, maximum: 720, default: 48 }),
    /** Threads reading the copies clients send to be verified or traced, with their heap, time limit and queue. */
    ...FileCheckSettings,
  }),
  3003,
);
export type PersonalizationSettings = Static<typeof personalizationConfig.settings>;
export type PersonalizationConfig = Static<typeof personalizationConfig.process>;

/** The service's options from its settings; the run mode adds the database, the bus and the logger. */
export function personalizationServiceOptions(settings: PersonalizationSettings): Omit<PersonalizationServiceOptions, 'database' | 'bus' | 'logger'> {
  return {
    ...sharedServiceOptions(settings),
    ...adminTokenOptions(settings),
    catalogueUrl: settings.CATALOGUE_URL,
    internalToken: settings.INTERNAL_TOKEN,
    publicUrl: settings.PUBLIC_URL,
    personasDir: settings.PERSONAS_DIR,
    personasS3: s3Settings(settings),
    signingKeyPem: settings.SIGNING_KEY_PEM,
    logSigningKey: settings.LOG_SIGNING_KEY,
    printPaper: settings.PRINT_PAPER,
    pdfWorkers: settings.PDF_WORKERS,
    pdfCacheBytes: Math.round(settings.PERSONA_PDF_CACHE_MB * 1024 * 1024),
    maxAttempts: settings.PERSONA_MAX_ATTEMPTS,
    retryDelaysMs: settings.PERSONA_RETRY_DELAYS_MS.split(',').map(Number),
    previewsPerMinute: settings.PREVIEWS_PER_MINUTE,
    previewCacheMs: settings.PREVIEW_CACHE_MINUTES * 60_000,
    previewWorkers: settings.PREVIEW_WORKERS,
    warmUp: settings.BUILD_WARM_UP,
    fileChecks: fileCheckOptions(settings),
    downloadLimits: {
      perFormat: settings.PERSONA_DOWNLOADS_PER_FORMAT,
      days: settings.PERSONA_DOWNLOAD_DAYS,
      renewalHours: settings.PERSONA_DOWNLOAD_RENEWAL_HOURS,
    },
  };
}
