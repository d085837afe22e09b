// The first administrator when replicas start together (issue 25): each finds none and makes it;
// one insert wins, the others' unique violations mean "already made", and no replica fails to start.
import { sql } from '@persona/db';
import { describeWithPostgres } from '@persona/test-kit';
import { bootstrapAdmin } from '../src/modules/auth/bootstrap-admin';
import { startAdminHarness, type AdminHarness } from './support';

describeWithPostgres()('the first administrator, replicas starting at once', () => {
  let harness: AdminHarness;
  beforeAll(async () => {
    harness = await startAdminHarness('postgres');
  }, 60_000);
  afterAll(() => harness.close());

  it('is made once, and every replica starts', async () => {
    const first = { email: 'first.admin@persona-books.in', password: 'four replicas at once', generate: false };
    const answers = await Promise.allSettled(Array.from({ length: 4 }, () => bootstrapAdmin(harness.database.db, first)));
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM admins WHERE email = ${first.email}`.execute(harness.database.db);
    expect(rows[0]!.n).toBe(1);
  });
});
