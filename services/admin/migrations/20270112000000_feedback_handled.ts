// Admin schema v5: a visitor's message is marked handled (when, by which administrator) and may be
// answered by e-mail once (the answer kept with who sent it and when), issue 24. The messages still
// waiting are the admin page's first view: a partial b-tree in the list's order keeps them a range.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('feedback')
    .addColumn('handled_at', 'timestamptz')
    .addColumn('handled_by', 'text')
    .addColumn('answer', 'text')
    .addColumn('answered_at', 'timestamptz')
    .addColumn('answered_by', 'text')
    .execute();
  // Handled means both when and by whom; an answer, its text, when and by whom.
  await sql`ALTER TABLE feedback ADD CONSTRAINT feedback_handled_whole CHECK ((handled_at IS NULL) = (handled_by IS NULL))`.execute(db);
  await sql`ALTER TABLE feedback ADD CONSTRAINT feedback_answer_whole CHECK ((answer IS NULL) = (answered_at IS NULL) AND (answer IS NULL) = (answered_by IS NULL))`.execute(
    db,
  );
  await sql`CREATE INDEX feedback_unhandled_idx ON feedback (created_at, id) WHERE handled_at IS NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX feedback_unhandled_idx`.execute(db);
  await db.schema.alterTable('feedback').dropConstraint('feedback_answer_whole').execute();
  await db.schema.alterTable('feedback').dropConstraint('feedback_handled_whole').execute();
  for (const column of ['answered_by', 'answered_at', 'answer', 'handled_by', 'handled_at'])
    await db.schema.alterTable('feedback').dropColumn(column).execute();
}
