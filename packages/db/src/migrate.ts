// Runs a service's migrations into its own schema, with the migration
// bookkeeping tables in that schema too. kysely's Migrator takes an advisory
// lock, so several processes of one service may start at once.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Migrator, sql, type DatabaseIntrospector, type Kysely, type Migration, type MigrationProvider, type TableMetadata } from 'kysely';
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

/**
 * What kysely's Migrator asks the database about its bookkeeping tables, answered for the one
 * schema the service owns. Its own introspector lists every table of every schema with functions
 * that look each one up by name (`has_schema_privilege`, `pg_get_serial_sequence`): slower the more
 * schemas share the database, and an error ("schema … does not exist") when another schema is
 * dropped while it reads, as the tests' schemas are, many processes at once, on one PostgreSQL.
 */
function ownSchemaIntrospector<DB>(db: Kysely<DB>, schema: string): DatabaseIntrospector {
  const getTables = async (): Promise<TableMetadata[]> => {
    const { rows } = await sql<{ name: string; isView: boolean }>`
      SELECT table_name AS "name", table_type = 'VIEW' AS "isView"
      FROM information_schema.tables WHERE table_schema = ${schema}`.execute(db);
    return rows.map((r) => ({ name: r.name, isView: r.isView, schema, columns: [] }));
  };
  return {
    getSchemas: async () => [{ name: schema }],
    getTables,
    getMetadata: async () => ({ tables: await getTables() }),
  };
}

/** `db` as the Migrator sees it: itself in every way, but introspecting only `schema`. */
function migratorView<DB>(db: Kysely<DB>, schema: string): Kysely<DB> {
  const introspection = ownSchemaIntrospector(db, schema);
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      // kysely keeps its state in private fields: its methods must run on the object itself.
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function migratorOf<DB>(database: Database<DB>, provider: MigrationProvider): Migrator {
  return new Migrator({
    db: migratorView(database.db, database.schema),
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
