// `npm run seed:scale`: fills a database with the scale data set (DESIGN §11): generated books
// (catalogue) and orders of them (orders), each made by its own service's seed, on PostgreSQL
// (--database-url or DATABASE_URL; defaults 100,000 books and 1,000,000 orders) or in the
// embedded shop's database (--data-dir or DATA_DIR, default ./data; defaults 20,000 books and
// 200,000 orders). It migrates what it fills first; it refuses a database that already holds a
// scale data set unless --force (which adds another).
import path from 'node:path';
import { CATALOGUE_SCHEMA, catalogueMigrations, LocalFileStorage, seedDemoCatalogue, seedScaleCatalogue, type CatalogueDB } from '@persona/catalogue';
import { migrateToLatest, openDatabase, openPglite, sql, type Database, type DatabaseSource } from '@persona/db';
import { ORDERS_SCHEMA, ordersMigrations, seedScaleOrders, type OrdersDB } from '@persona/orders';
import { claimDataDir } from './data-lock';
import { PGLITE_TEMPLATE } from './make-pglite-template';

export const DEFAULTS = {
  postgres: { books: 100_000, orders: 1_000_000 },
  pglite: { books: 20_000, orders: 200_000 },
} as const;

/** A database that already holds more books than this has had a scale data set seeded. */
const SEEDED_ALREADY = 1000;

export interface SeedArgs {
  databaseUrl?: string;
  dataDir: string;
  books?: number;
  orders?: number;
  seed: number;
  force: boolean;
}

export const USAGE = `npm run seed:scale -- [--books N] [--orders N] [--seed N] [--database-url URL | --data-dir DIR] [--force]`;

/** Reads the command line; a wrong option is an Error whose message says what is wrong. */
export function parseSeedArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): SeedArgs {
  const args: SeedArgs = { databaseUrl: env.DATABASE_URL || undefined, dataDir: path.resolve(env.DATA_DIR ?? 'data'), seed: 1, force: false };
  const count = (flag: string, value: string | undefined) => {
    const n = Number(value);
    if (value === undefined || !/^\d+$/.test(value) || !Number.isSafeInteger(n))
      throw new Error(`${flag} needs a whole number, not ${JSON.stringify(value ?? '')}`);
    return n;
  };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    switch (flag) {
      case '--books':
        args.books = count(flag, value);
        i += 1;
        break;
      case '--orders':
        args.orders = count(flag, value);
        i += 1;
        break;
      case '--seed':
        args.seed = count(flag, value);
        i += 1;
        break;
      case '--database-url':
        if (!value || !/^postgres(ql)?:\/\//.test(value)) throw new Error(`--database-url needs a postgres:// address, not ${JSON.stringify(value ?? '')}`);
        args.databaseUrl = value;
        i += 1;
        break;
      case '--data-dir':
        if (!value) throw new Error('--data-dir needs a folder');
        args.dataDir = path.resolve(value);
        args.databaseUrl = undefined;
        i += 1;
        break;
      case '--force':
        args.force = true;
        break;
      default:
        throw new Error(`unknown option ${JSON.stringify(flag)}`);
    }
  }
  return args;
}

export interface SeedSummary {
  target: string;
  books: number;
  orders: number;
  paid: number;
  seconds: { books: number; orders: number };
}

function progress(what: string, log: (line: string) => void) {
  const started = performance.now();
  let shown = 0;
  return (done: number, total: number) => {
    if (done < total && done - shown < total / 10) return;
    shown = done;
    const seconds = (performance.now() - started) / 1000;
    log(`  ${what}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} (${Math.round(done / Math.max(seconds, 0.001)).toLocaleString('en')}/s)`);
  };
}

export async function seedScale(args: SeedArgs, log: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<SeedSummary> {
  const kind = args.databaseUrl ? 'postgres' : 'pglite';
  const books = args.books ?? DEFAULTS[kind].books;
  const orders = args.orders ?? DEFAULTS[kind].orders;
  let source: DatabaseSource;
  let release = () => undefined as void;
  let closeShared = async () => undefined as void;
  if (args.databaseUrl) {
    source = { kind: 'postgres', url: args.databaseUrl, applicationName: 'seed-scale' };
  } else {
    release = claimDataDir(args.dataDir, 'seed:scale');
    const shared = await openPglite(path.join(args.dataDir, 'db'), { template: PGLITE_TEMPLATE });
    source = { kind: 'pglite', shared };
    closeShared = () => shared.close();
  }
  const catalogue: Database<CatalogueDB> = openDatabase<CatalogueDB>(source, CATALOGUE_SCHEMA);
  const ordersDb: Database<OrdersDB> = openDatabase<OrdersDB>(source, ORDERS_SCHEMA);
  const target = args.databaseUrl ? new URL(args.databaseUrl).pathname.slice(1) || 'postgres' : path.join(args.dataDir, 'db');
  try {
    await migrateToLatest(catalogue, catalogueMigrations);
    await migrateToLatest(ordersDb, ordersMigrations);
    // The embedded shop keeps its files in the data folder: the demo goes in with its covers, as on a first start.
    // A service seeds the demo itself on its first start in the distributed mode (with its own FILES_DIR).
    if (!args.databaseUrl) await seedDemoCatalogue(catalogue.db, new LocalFileStorage(path.join(args.dataDir, 'files')));
    const { rows } = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM books`.execute(catalogue.db);
    const existing = Number(rows[0]!.n);
    if (existing > SEEDED_ALREADY && !args.force) {
      throw new Error(`${target} already holds ${existing.toLocaleString('en')} books (a scale data set); --force adds another`);
    }
    log(
      `Seeding ${books.toLocaleString('en')} books and ${orders.toLocaleString('en')} orders into ${kind === 'postgres' ? `PostgreSQL database "${target}"` : `the embedded database ${target}`} (seed ${args.seed})`,
    );
    let started = performance.now();
    const made = await seedScaleCatalogue(catalogue.db, { books, seed: args.seed, onProgress: progress('books', log) });
    const bookSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const placed =
      made.length > 0
        ? await seedScaleOrders(ordersDb.db, { orders, books: made, seed: args.seed, onProgress: progress('orders', log) })
        : { orders: 0, paid: 0 };
    const orderSeconds = (performance.now() - started) / 1000;
    log(
      `Done: ${made.length.toLocaleString('en')} books in ${bookSeconds.toFixed(1)} s, ${placed.orders.toLocaleString('en')} orders (${placed.paid.toLocaleString('en')} paid) in ${orderSeconds.toFixed(1)} s`,
    );
    return { target, books: made.length, orders: placed.orders, paid: placed.paid, seconds: { books: bookSeconds, orders: orderSeconds } };
  } finally {
    await catalogue.close();
    await ordersDb.close();
    await closeShared();
    release();
  }
}

if (require.main === module) {
  let args: SeedArgs;
  try {
    args = parseSeedArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`seed:scale: ${(err as Error).message}\nusage: ${USAGE}\n`);
    process.exit(2);
  }
  seedScale(args).catch((err: Error) => {
    process.stderr.write(`seed:scale failed: ${err.message}\n`);
    process.exit(1);
  });
}
