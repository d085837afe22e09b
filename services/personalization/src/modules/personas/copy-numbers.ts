// "Copy No. N" (issue 27): each book's Personas are numbered 1, 2, 3… in the order they are claimed,
// before the PDF is made (the number is printed in it). The book's counter row is raised and the
// claim recorded in one transaction, so concurrent sales wait on the row in turn and no number is
// skipped or given twice; a redelivered request finds its claim and keeps its number. A re-issue
// keeps the number of the copy it replaces. A number whose copy fails for good is revoked in the log
// (public-log/log-writer.ts), so it is still no gap.
import { sql, type Kysely } from 'kysely';
import type { PersonaLogPlace } from '@persona/contracts';
import type { PersonalizationDB } from '../../db';

type Db = Kysely<PersonalizationDB>;

/** Raised inside the claim's transaction when another delivery of the same request claimed first: the counter goes back. */
class ClaimedMeanwhile extends Error {}

const claimOf = (db: Db, personaId: string) =>
  db.selectFrom('persona_copies').select(['copy_no', 'book_id']).where('persona_id', '=', personaId).executeTakeFirst();

/**
 * The copy number of Persona `personaId` of `bookId`: its claim if it has one, else the number of
 * the copy it re-issues, else the book's next number.
 */
export async function claimCopyNumber(db: Db, claim: { personaId: string; bookId: string; replaces?: string }): Promise<number> {
  const existing = await claimOf(db, claim.personaId);
  if (existing) return existing.copy_no;
  if (claim.replaces) {
    const original = await claimOf(db, claim.replaces);
    if (original) {
      await db
        .insertInto('persona_copies')
        .values({ persona_id: claim.personaId, book_id: original.book_id, copy_no: original.copy_no, replaces: claim.replaces })
        .onConflict((oc) => oc.column('persona_id').doNothing())
        .execute();
      return (await claimOf(db, claim.personaId))!.copy_no;
    }
  }
  try {
    return await db.transaction().execute(async (trx) => {
      const { last_copy } = await trx
        .insertInto('book_copy_counters')
        .values({ book_id: claim.bookId, last_copy: 1 })
        .onConflict((oc) => oc.column('book_id').doUpdateSet({ last_copy: sql<number>`book_copy_counters.last_copy + 1` }))
        .returning('last_copy')
        .executeTakeFirstOrThrow();
      const inserted = await trx
        .insertInto('persona_copies')
        .values({ persona_id: claim.personaId, book_id: claim.bookId, copy_no: last_copy })
        .onConflict((oc) => oc.column('persona_id').doNothing())
        .returning('copy_no')
        .executeTakeFirst();
      if (!inserted) throw new ClaimedMeanwhile();
      return last_copy;
    });
  } catch (err) {
    if (!(err instanceof ClaimedMeanwhile)) throw err;
    return (await claimOf(db, claim.personaId))!.copy_no;
  }
}

/** A Persona's copy number, or null for one never numbered. */
export async function copyNumberOf(db: Db, personaId: string): Promise<number | null> {
  return (await claimOf(db, personaId))?.copy_no ?? null;
}

/**
 * Where a Persona stands in the public log: its entry, the salt of its commitment, and the entries
 * after it about it (a refund); null until the writer has appended it.
 */
export async function logPlaceOf(db: Db, personaId: string, origin: string): Promise<PersonaLogPlace | null> {
  const claim = await db.selectFrom('persona_copies').select(['entry_idx', 'log_salt']).where('persona_id', '=', personaId).executeTakeFirst();
  if (!claim || claim.entry_idx === null || claim.log_salt === null) return null;
  const entries = await db.selectFrom('log_entries').select(['idx', 'entry']).where('persona_id', '=', personaId).orderBy('idx').execute();
  const own = entries.find((e) => e.idx === claim.entry_idx);
  if (!own) return null;
  return {
    origin,
    index: own.idx,
    entry: own.entry,
    salt: claim.log_salt,
    later: entries.filter((e) => e.idx > own.idx).map((e) => ({ index: e.idx, entry: e.entry })),
  };
}
