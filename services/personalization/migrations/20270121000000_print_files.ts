// Personalisation schema: a printed Persona's print files (issue 27), and what the public log has
// still to record besides copies. A Persona of a printed order gets an interior and a cover spread
// beside its PDF; what the preflight found is kept (`print_problems`, JSON: an empty list, the files
// are ready to print), with the interior's page count and the spine's width. `shipped_at`: its
// printed copy left for its reader. `log_queue` holds the events about a copy the log's writer has
// yet to append (a refund, a printed copy made, then shipped), each once, deleted as it is logged:
// the writer reads a few rows, never every refunded or printed Persona there ever was.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('personas')
    .addColumn('print_pages', 'integer')
    .addColumn('print_spine_in', 'double precision')
    .addColumn('print_problems', 'text')
    .addColumn('shipped_at', 'timestamptz')
    .execute();
  await db.schema
    .createTable('log_queue')
    .addColumn('persona_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('refund', 'printed', 'shipped')`))
    .addColumn('queued_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('log_queue_pkey', ['persona_id', 'kind'])
    .execute();
  await sql`CREATE INDEX log_queue_order_idx ON log_queue (queued_at)`.execute(db);
  // Refunds the log has not recorded yet, queued; the writer no longer looks through every refunded Persona.
  await sql`
    INSERT INTO log_queue (persona_id, kind)
    SELECT p.persona_id, 'refund' FROM personas p
    WHERE p.licence_end = 'refunded'
      AND NOT EXISTS (SELECT 1 FROM log_entries e WHERE e.persona_id = p.persona_id AND e.kind = 'refund')`.execute(db);
  await sql`DROP INDEX personas_refunded_idx`.execute(db);
  await sql`ALTER TABLE log_entries DROP CONSTRAINT log_entries_kind_check`.execute(db);
  await sql`ALTER TABLE log_entries ADD CONSTRAINT log_entries_kind_check CHECK (kind IN ('persona', 'reissue', 'revoked', 'refund', 'printed', 'shipped'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE log_entries DROP CONSTRAINT log_entries_kind_check`.execute(db);
  await sql`ALTER TABLE log_entries ADD CONSTRAINT log_entries_kind_check CHECK (kind IN ('persona', 'reissue', 'revoked', 'refund'))`.execute(db);
  await sql`CREATE INDEX personas_refunded_idx ON personas (persona_id) WHERE licence_end = 'refunded'`.execute(db);
  await db.schema.dropTable('log_queue').execute();
  await db.schema.alterTable('personas').dropColumn('print_pages').dropColumn('print_spine_in').dropColumn('print_problems').dropColumn('shipped_at').execute();
}
