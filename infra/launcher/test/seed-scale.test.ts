// `npm run seed:scale`: its options, and a small run into an embedded database it then refuses
// to fill twice, or while the shop has it open.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { claimDataDir } from '../src/data-lock';
import { DEFAULTS, parseSeedArgs, seedScale } from '../src/seed-scale';

describe('seed:scale options', () => {
  it('reads counts, the seed and the target, with the embedded database by default', () => {
    expect(parseSeedArgs(['--books', '500', '--orders', '2000', '--seed', '9'], {})).toMatchObject({
      books: 500,
      orders: 2000,
      seed: 9,
      databaseUrl: undefined,
      force: false,
    });
    expect(parseSeedArgs(['--database-url', 'postgres://u@h:5432/db'], {}).databaseUrl).toBe('postgres://u@h:5432/db');
    expect(parseSeedArgs([], { DATABASE_URL: 'postgres://u@h/db' }).databaseUrl).toBe('postgres://u@h/db');
    expect(parseSeedArgs(['--data-dir', '/tmp/x'], { DATABASE_URL: 'postgres://u@h/db' })).toMatchObject({ databaseUrl: undefined, dataDir: '/tmp/x' });
    expect(DEFAULTS.postgres).toEqual({ books: 100_000, orders: 1_000_000 });
    expect(DEFAULTS.pglite.books).toBeLessThan(DEFAULTS.postgres.books);
  });

  it.each([
    [['--books'], '--books needs a whole number, not ""'],
    [['--books', '-5'], '--books needs a whole number, not "-5"'],
    [['--orders', '1e6'], '--orders needs a whole number, not "1e6"'],
    [['--database-url', 'mysql://x'], '--database-url needs a postgres:// address, not "mysql://x"'],
    [['--colour', 'blue'], 'unknown option "--colour"'],
  ])('refuses %j clearly', (argv, message) => {
    expect(() => parseSeedArgs(argv, {})).toThrow(message);
  });
});

describe('seed:scale into the embedded database', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'seed-scale-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const quiet = () => undefined;

  it('seeds the demo and the scale books and orders, then refuses to seed again without --force', async () => {
    const summary = await seedScale({ dataDir: dir, books: 1200, orders: 3000, seed: 1, force: false }, quiet);
    expect(summary).toMatchObject({ books: 1200, orders: 3000 });
    await expect(seedScale({ dataDir: dir, books: 10, orders: 10, seed: 2, force: false }, quiet)).rejects.toThrow(/already holds 1,214 books/);
    expect((await seedScale({ dataDir: dir, books: 10, orders: 10, seed: 2, force: true }, quiet)).books).toBe(10);
  }, 60_000);

  it('will not touch a data folder the shop has open', async () => {
    const release = claimDataDir(dir, 'the shop');
    try {
      // The lock names this very process, so a second claim from it is told apart by the holder's pid only when it is another: fake one.
      const { writeFileSync } = await import('node:fs');
      writeFileSync(path.join(dir, 'shop.pid'), `${process.ppid} the shop\n`);
      await expect(seedScale({ dataDir: dir, books: 1, orders: 1, seed: 1, force: true }, quiet)).rejects.toThrow(/is in use by the shop/);
    } finally {
      release();
    }
  });
});
