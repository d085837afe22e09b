// Personalisation schema: the public log of Personas and their copy numbers (issue 27).
// `book_copy_counters` hands each book's next copy number (taken in the transaction that claims it,
// so numbers are dense under concurrent sales); `persona_copies` is each Persona's number, taken
// before its PDF is made (the number is printed in it), and where the log holds it: its own entry
// (`entry_idx`, with the salt of its commitment) and, when it failed for good, the entry that revoked its number (`revoked_idx`). A
// re-issue keeps the number of the copy it replaces (`replaces`). `log_entries` is the log itself, as
// the one writer appended it; `log_state` its size, origin, signing key and latest checkpoint.
// Personas made before are numbered here in the order they were made, and logged by the writer's
// first rounds.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('book_copy_counters')
    .addColumn('book_id', 'text', (c) => c.primaryKey())
    .addColumn('last_copy', 'integer', (c) => c.notNull().check(sql`last_copy >= 0`))
    .execute();
  await db.schema
    .createTable('persona_copies')
    .addColumn('persona_id', 'text', (c) => c.primaryKey())
    .addColumn('book_id', 'text', (c) => c.notNull())
    .addColumn('copy_no', 'integer', (c) => c.notNull().check(sql`copy_no > 0`))
    .addColumn('replaces', 'text')
    .addColumn('entry_idx', 'integer')
    .addColumn('revoked_idx', 'integer')
    .addColumn('log_salt', 'text')
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One original per number and book; a re-issue shares its original's.
  await sql`CREATE UNIQUE INDEX persona_copies_number_idx ON persona_copies (book_id, copy_no) WHERE replaces IS NULL`.execute(db);
  // What the writer has still to log: few rows, whatever the size of the shop.
  await sql`CREATE INDEX persona_copies_unlogged_idx ON persona_copies (book_id, copy_no) WHERE entry_idx IS NULL`.execute(db);
  await db.schema
    .createTable('log_entries')
    .addColumn('idx', 'integer', (c) => c.primaryKey().check(sql`idx >= 0`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('persona', 'reissue', 'revoked', 'refund')`))
    .addColumn('persona_id', 'text', (c) => c.notNull())
    .addColumn('entry', 'text', (c) => c.notNull())
    .addColumn('logged_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX log_entries_persona_idx ON log_entries (persona_id, idx)`.execute(db);
  await db.schema
    .createTable('log_state')
    .addColumn('id', 'smallint', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('signer_key', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull().check(sql`size >= 0`))
    .addColumn('checkpoint', 'text')
    .addColumn('published_size', 'integer', (c) => c.notNull().check(sql`published_size >= 0`))
    .execute();
  // A refund the log has yet to record is found among the few refunded Personas.
  await sql`CREATE INDEX personas_refunded_idx ON personas (persona_id) WHERE licence_end = 'refunded'`.execute(db);

  // Personas made before: numbered per book in the order they were made; a re-issue shares the
  // number of the copy it replaced (along a chain of re-issues, the first one's).
  await sql`
    INSERT INTO persona_copies (persona_id, book_id, copy_no)
    SELECT persona_id, book_id, row_number() OVER (PARTITION BY book_id ORDER BY created_at, persona_id)
    FROM personas p
    WHERE NOT EXISTS (SELECT 1 FROM personas o WHERE o.replaced_by = p.persona_id)`.execute(db);
  await sql`
    WITH RECURSIVE chain (persona_id, previous, root) AS (
      SELECT persona_id, NULL::text, persona_id FROM persona_copies
      UNION ALL
      SELECT o.replaced_by, c.persona_id, c.root FROM chain c JOIN personas o ON o.persona_id = c.persona_id WHERE o.replaced_by IS NOT NULL
    )
    INSERT INTO persona_copies (persona_id, book_id, copy_no, replaces)
    SELECT c.persona_id, r.book_id, r.copy_no, c.previous FROM chain c JOIN persona_copies r ON r.persona_id = c.root WHERE c.previous IS NOT NULL`.execute(db);
  await sql`
    INSERT INTO book_copy_counters (book_id, last_copy)
    SELECT book_id, max(copy_no) FROM persona_copies GROUP BY book_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX personas_refunded_idx`.execute(db);
  await db.schema.dropTable('log_state').execute();
  await db.schema.dropTable('log_entries').execute();
  await db.schema.dropTable('persona_copies').execute();
  await db.schema.dropTable('book_copy_counters').execute();
}
