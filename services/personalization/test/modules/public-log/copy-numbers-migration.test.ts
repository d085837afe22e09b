// The public log's migration (issue 27) on a shop that already sold, on PGlite and PostgreSQL: the
// Personas made before are numbered per book in the order they were made, a re-issue (along a chain
// of them) sharing the number of the copy it replaced, and each book's counter left at its last
// number, so the next sale takes the next one.
import { randomUUID } from 'node:crypto';
import { migrateToLatest, sql, type Database } from '@persona/db';
import { describeWithPostgres } from '@persona/test-kit';
import { openTestStack } from '@persona/test-stack';
import type { MigrationProvider } from 'kysely';
import type { PersonalizationDB } from '../../../src/db';
import { claimCopyNumber } from '../../../src/modules/personas/copy-numbers';
import { personalizationMigrations } from '../../../src/service';

/** The service's migrations before the public log's. */
const before: MigrationProvider = {
  async getMigrations() {
    const all = await personalizationMigrations.getMigrations();
    return Object.fromEntries(Object.entries(all).filter(([name]) => name < '20270120000000'));
  },
};

function contract(kind: 'pglite' | 'postgres') {
  let stack: Awaited<ReturnType<typeof openTestStack<PersonalizationDB>>>;
  let database: Database<PersonalizationDB>;
  beforeAll(async () => {
    stack = await openTestStack<PersonalizationDB>(kind, 'personalization');
    database = stack.database;
    await migrateToLatest(database, before);
  }, 60_000);
  afterAll(() => stack?.close());

  it('numbers the Personas made before per book in the order they were made, a re-issue keeping its number', async () => {
    const [bookA, bookB] = [randomUUID(), randomUUID()];
    // Made in this order (a minute apart): A1, B1, A2, A2 re-issued, A3, A2's re-issue re-issued.
    const made: Array<[string, string, string | null]> = [
      ['PRS-AAAA-0000-0000-0001', bookA, null],
      ['PRS-BBBB-0000-0000-0001', bookB, null],
      ['PRS-AAAA-0000-0000-0002', bookA, 'PRS-AAAA-0000-0000-0R02'],
      ['PRS-AAAA-0000-0000-0R02', bookA, 'PRS-AAAA-0000-0000-RR02'],
      ['PRS-AAAA-0000-0000-0003', bookA, null],
      ['PRS-AAAA-0000-0000-RR02', bookA, null],
    ];
    for (const [i, [personaId, bookId, replacedBy]] of made.entries()) {
      await sql`
        INSERT INTO personas (persona_id, order_id, book_id, title, author, buyer_name, purchase_date, status, replaced_by, created_at)
        VALUES (${personaId}, ${randomUUID()}, ${bookId}, 'T', 'A', 'Asha', '2026-12-01', 'ready', ${replacedBy}, ${new Date(Date.UTC(2026, 11, 1, 10, i))})`.execute(
        database.db,
      );
    }
    await migrateToLatest(database, personalizationMigrations);
    const rows = await database.db.selectFrom('persona_copies').select(['persona_id', 'book_id', 'copy_no', 'replaces']).orderBy('persona_id').execute();
    expect(rows.map((r) => [r.persona_id, r.book_id === bookA ? 'A' : 'B', r.copy_no, r.replaces])).toEqual([
      ['PRS-AAAA-0000-0000-0001', 'A', 1, null],
      ['PRS-AAAA-0000-0000-0002', 'A', 2, null],
      ['PRS-AAAA-0000-0000-0003', 'A', 3, null],
      ['PRS-AAAA-0000-0000-0R02', 'A', 2, 'PRS-AAAA-0000-0000-0002'],
      ['PRS-AAAA-0000-0000-RR02', 'A', 2, 'PRS-AAAA-0000-0000-0R02'],
      ['PRS-BBBB-0000-0000-0001', 'B', 1, null],
    ]);
    // The next sale of each book takes the next number.
    expect(await claimCopyNumber(database.db, { personaId: 'PRS-AAAA-0000-0000-0004', bookId: bookA })).toBe(4);
    expect(await claimCopyNumber(database.db, { personaId: 'PRS-BBBB-0000-0000-0002', bookId: bookB })).toBe(2);
  }, 60_000);
}

describe('the public log migration on PGlite', () => contract('pglite'));
describeWithPostgres()('the public log migration on PostgreSQL', () => contract('postgres'));
