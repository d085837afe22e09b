// Runs a service's migrations into its own schema, with the migration
// bookkeeping tables in that schema too. kysely's Migrator takes an advisory
// lock, so several processes of one service may start at once.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './database';

/** Loads `<timestamp>_<name>.(js|ts)` files from a folder, in name order. */
export function folderMigrations(dir: string): MigrationProvider {
  return {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      const files = readdirSync(dir)
        .filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith('.d.ts'))
        .sort();
      for (const file of files) {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const mod = require(path.join(dir, file)) as Migration;
        out[file.replace(/\.(js|ts)$/, '')] = { up: mod.up, down: mod.down };
      }
      return out;
    },
  };
}

function migratorOf<DB>(database: Database<DB>, provider: MigrationProvider): Migrator {
  return new Migrator({
    db: database.db,
    provider,
    migrationTableSchema: database.schema,
    // A service runs its own migrations and the shared ones of packages/bus (named 0000…, so they
    // come first on a fresh database). A shared migration added later sorts before the service's
    // migrations a running shop already applied; it must still run there, not stop the start.
    allowUnorderedMigrations: true,
  });
}

export async function migrateToLatest<DB>(database: Database<DB>, provider: MigrationProvider): Promise<string[]> {
  await database.ensureSchema();
  const { error, results } = await migratorOf(database, provider).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} of schema ${database.schema} failed: ${String((error as Error).message ?? error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * The migrations the schema still lacks (all of them on a database never migrated), without running
 * any: what a service started with MIGRATIONS=check refuses to start without (issue 25).
 */
export async function pendingMigrations<DB>(database: Database<DB>, provider: MigrationProvider): Promise<string[]> {
  const migrations = await migratorOf(database, provider).getMigrations();
  return migrations.filter((m) => !m.executedAt).map((m) => m.name);
}
