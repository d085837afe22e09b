// `npm run migrate`: a cluster's release step (issue 25). Every service's schema in the PostgreSQL
// of DATABASE_URL (or --database-url) brought to this version's migrations, once, before the new
// processes start with MIGRATIONS=check (they refuse a schema older than they need). Safe to run
// twice, or from two machines at once: each schema's migrator takes an advisory lock, and a
// migration applied is not applied again.
import { ADMIN_SCHEMA, adminMigrations } from '@persona/admin';
import { CATALOGUE_SCHEMA, catalogueMigrations } from '@persona/catalogue';
import { migrateToLatest, openDatabase } from '@persona/db';
import { ORDERS_SCHEMA, ordersMigrations } from '@persona/orders';
import { PERSONALIZATION_SCHEMA, personalizationMigrations } from '@persona/personalization';

/** The services with a schema of their own, in the order their processes start. */
export const SERVICE_SCHEMAS: ReadonlyArray<{ service: string; schema: string; migrations: typeof adminMigrations }> = [
  { service: 'admin', schema: ADMIN_SCHEMA, migrations: adminMigrations },
  { service: 'catalogue', schema: CATALOGUE_SCHEMA, migrations: catalogueMigrations },
  { service: 'orders', schema: ORDERS_SCHEMA, migrations: ordersMigrations },
  { service: 'personalization', schema: PERSONALIZATION_SCHEMA, migrations: personalizationMigrations },
];

/** Migrates every service's schema; what each had applied (empty: it was current). */
export async function migrateAll(databaseUrl: string): Promise<Record<string, string[]>> {
  const applied: Record<string, string[]> = {};
  for (const { service, schema, migrations } of SERVICE_SCHEMAS) {
    const database = openDatabase({ kind: 'postgres', url: databaseUrl, applicationName: 'persona-migrate', poolSize: 2 }, schema);
    try {
      applied[service] = await migrateToLatest(database, migrations);
    } finally {
      await database.close();
    }
  }
  return applied;
}

/** The database to migrate: --database-url, else DATABASE_URL. */
export function migrateTarget(argv: readonly string[], env: NodeJS.ProcessEnv): string {
  const at = argv.indexOf('--database-url');
  const url = at >= 0 ? argv[at + 1] : env.DATABASE_URL;
  const unknown = argv.filter((arg, i) => arg.startsWith('--') && arg !== '--database-url' && argv[i - 1] !== '--database-url');
  if (unknown.length > 0) throw new Error(`unknown option "${unknown[0]}"`);
  if (!url) throw new Error('set DATABASE_URL (or --database-url): the PostgreSQL whose schemas to migrate');
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error(`the database must be a postgres:// address, not "${url}"`);
  return url;
}

if (require.main === module) {
  (async () => {
    const url = migrateTarget(process.argv.slice(2), process.env);
    const applied = await migrateAll(url);
    for (const [service, names] of Object.entries(applied)) {
      console.log(names.length > 0 ? `${service}: applied ${names.join(', ')}` : `${service}: up to date`);
    }
  })().catch((err: unknown) => {
    console.error(`migrate: ${(err as Error).message}`);
    process.exit(1);
  });
}
