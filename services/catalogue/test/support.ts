// Builds a catalogue app on a fresh database (PGlite in memory, or a fresh
// schema on the real PostgreSQL) with files in a temp folder.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { migrateToLatest, sql, type Database } from '@persona/db';
import { createAdminVerifier, type ServiceApp } from '@persona/service-kit';
import { mintAdminToken, TEST_JWT_SECRET } from '@persona/test-kit';
import { openTestStack } from '@persona/test-stack';
import { buildApp, type CatalogueAppOptions } from '../src/app';
import type { CatalogueDB } from '../src/db';
import { LocalFileStorage } from '../src/modules/files/file-storage';
import { catalogueMigrations } from '../src/service';

export interface Harness {
  app: ServiceApp;
  database: Database<CatalogueDB>;
  storage: LocalFileStorage;
  filesDir: string;
  auth: { authorization: string };
  writes: number;
  close(): Promise<void>;
}

export async function openTestDatabase(kind: 'pglite' | 'postgres'): Promise<{ database: Database<CatalogueDB>; dispose(): Promise<void> }> {
  const stack = await openTestStack<CatalogueDB>(kind, 'catalogue');
  await migrateToLatest(stack.database, catalogueMigrations);
  return { database: stack.database, dispose: () => stack.close() };
}

export async function startHarness(kind: 'pglite' | 'postgres' = 'pglite', options: Pick<CatalogueAppOptions, 'uploadChecks'> = {}): Promise<Harness> {
  const { database, dispose } = await openTestDatabase(kind);
  const filesDir = await mkdtemp(path.join(os.tmpdir(), 'catalogue-files-'));
  const storage = new LocalFileStorage(filesDir);
  const harness: Harness = {
    database,
    storage,
    filesDir,
    auth: { authorization: `Bearer ${mintAdminToken()}` },
    writes: 0,
    app: undefined as unknown as ServiceApp,
    async close() {
      await harness.app.close();
      await dispose();
      await rm(filesDir, { recursive: true, force: true });
    },
  };
  harness.app = await buildApp({
    ...options,
    db: database.db,
    storage,
    // Spooled uploads beside the files: a refused request that left one behind shows in `storedFiles`.
    uploadsDir: path.join(filesDir, '.incoming'),
    verifier: createAdminVerifier({ secret: TEST_JWT_SECRET }),
    relay: {
      nudge: () => {
        harness.writes += 1;
      },
    },
  });
  return harness;
}

/** Every stored file's key, to prove a refused request wrote nothing. */
export async function storedFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const area of await readdir(dir).catch(() => [] as string[])) {
    for (const name of await readdir(path.join(dir, area))) out.push(`${area}/${name}`);
  }
  return out.sort();
}

export const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** A small PDF of `pages` blank pages (readable: a catalogue, a page tree), marked with `text`. */
export function tinyPdf(text = 'hello', pages = 1): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${3 + i} 0 R`).join(' ');
  const pageObjects = Array.from({ length: pages }, (_, i) => `${3 + i} 0 obj <</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>> endobj\n`).join('');
  return Buffer.from(
    `%PDF-1.4\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n2 0 obj <</Type/Pages/Kids[${kids}]/Count ${pages}>> endobj\n${pageObjects}% ${text}\ntrailer <</Root 1 0 R>>\n%%EOF\n`,
    'latin1',
  );
}

export type FormValue = string | { bytes: Buffer; filename: string; type?: string };

/** Encodes a multipart body the way a browser's FormData would. */
export async function multipart(fields: Array<[string, FormValue]>): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of fields) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([value.bytes], { type: value.type ?? 'application/octet-stream' }), value.filename);
  }
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), headers: { 'content-type': response.headers.get('content-type')! } };
}

/** Who each recorded event names as its cause: the administrator's e-mail, or null. */
export async function outboxActors(database: Database<CatalogueDB>): Promise<Array<string | null>> {
  const { rows } = await sql<{ actor: string | null }>`SELECT envelope->'actor'->>'email' AS actor FROM outbox ORDER BY id`.execute(database.db);
  return rows.map((r) => r.actor);
}

export async function outboxTypes(database: Database<CatalogueDB>): Promise<string[]> {
  const { rows } = await sql<{ type: string }>`SELECT type FROM outbox ORDER BY id`.execute(database.db);
  return rows.map((r) => r.type);
}
