import { sql, type Kysely, type Selectable } from 'kysely';
import type { PersonalizationDB, PersonasTable } from '../../db';

type Db = Kysely<PersonalizationDB>;
export type PersonaRow = Selectable<PersonasTable>;

export const findPersona = (db: Db, personaId: string) => db.selectFrom('personas').selectAll().where('persona_id', '=', personaId).executeTakeFirst();
export const findPersonaBySha256 = (db: Db, sha256: string) =>
  db.selectFrom('personas').selectAll().where('sha256', '=', sha256).where('status', '=', 'ready').executeTakeFirst();
export const findPersonaByEpubSha256 = (db: Db, sha256: string) =>
  db.selectFrom('personas').selectAll().where('epub_sha256', '=', sha256).where('status', '=', 'ready').executeTakeFirst();

/** The ready Persona a leak mark belongs to. */
export const findPersonaByMark = (db: Db, mark: number) =>
  db.selectFrom('personas').selectAll().where('mark', '=', mark).where('status', '=', 'ready').executeTakeFirst();

export interface ReadyPersona {
  persona_id: string;
  order_id: string;
  book_id: string;
  title: string;
  author: string;
  buyer_name: string;
  purchase_date: string;
  recipient_name: string | null;
  message: string | null;
  signature: string;
  key_id: string;
  sha256: string;
  /** The EPUB's, when the Persona has one (a book typeset from its text). */
  epub_sha256: string | null;
  /** The copy's leak mark (leak-mark/mark-code.ts). */
  mark: number;
  pages: number;
  /** The signed record's version (2 since issue 24) and the salts of its private details. */
  record_version: number;
  buyer_name_salt: string | null;
  message_salt: string | null;
  /** A printed copy's print files (issue 27): the interior's pages, the spine, what the preflight found (JSON); null for a digital one. */
  print_pages?: number | null;
  print_spine_in?: number | null;
  print_problems?: string | null;
}

/** Records a ready Persona; answers false when it was already ready (a redelivery). */
export async function saveReady(db: Db, persona: ReadyPersona): Promise<boolean> {
  const row = await db
    .insertInto('personas')
    .values({ ...persona, status: 'ready', error: null, ready_at: sql`now()` })
    .onConflict((oc) =>
      oc
        .column('persona_id')
        .doUpdateSet({ ...persona, status: 'ready', error: null, ready_at: sql`now()` })
        .where('personas.status', '<>', 'ready'),
    )
    .returning('persona_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function saveFailed(
  db: Db,
  persona: Omit<
    ReadyPersona,
    | 'signature'
    | 'key_id'
    | 'sha256'
    | 'epub_sha256'
    | 'mark'
    | 'pages'
    | 'recipient_name'
    | 'message'
    | 'record_version'
    | 'buyer_name_salt'
    | 'message_salt'
    | 'print_pages'
    | 'print_spine_in'
    | 'print_problems'
  > & { error: string },
): Promise<boolean> {
  const row = await db
    .insertInto('personas')
    .values({ ...persona, status: 'failed' })
    .onConflict((oc) => oc.column('persona_id').doUpdateSet({ status: 'failed', error: persona.error }).where('personas.status', '<>', 'ready'))
    .returning('persona_id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Ends the licence of every Persona of a refunded order whose licence holds (one replaced earlier
 * stays replaced), and keeps the order as refunded for those made after; answers the ids ended.
 */
export async function endLicencesOfOrder(db: Db, orderId: string, at: Date): Promise<string[]> {
  await db
    .insertInto('refunded_orders')
    .values({ order_id: orderId, refunded_at: at })
    .onConflict((oc) => oc.column('order_id').doNothing())
    .execute();
  const rows = await db
    .updateTable('personas')
    .set({ licence_end: 'refunded', licence_ended_at: at })
    .where('order_id', '=', orderId)
    .where('licence_end', 'is', null)
    .returning('persona_id')
    .execute();
  await queueForLog(
    db,
    rows.map((r) => r.persona_id),
    'refund',
  );
  return rows.map((r) => r.persona_id);
}

/** A Persona just made for an order already refunded in full is born with its licence ended. */
export async function endLicenceIfRefunded(db: Db, orderId: string, personaId: string): Promise<void> {
  const refunded = await db.selectFrom('refunded_orders').select('refunded_at').where('order_id', '=', orderId).executeTakeFirst();
  if (!refunded) return;
  const ended = await db
    .updateTable('personas')
    .set({ licence_end: 'refunded', licence_ended_at: refunded.refunded_at })
    .where('persona_id', '=', personaId)
    .where('licence_end', 'is', null)
    .returning('persona_id')
    .execute();
  await queueForLog(
    db,
    ended.map((r) => r.persona_id),
    'refund',
  );
}

/**
 * An event about copies the public log has yet to record (public-log/log-writer.ts appends it and
 * takes it off the queue), in the transaction that makes it true; queued once however often told.
 */
export async function queueForLog(db: Db, personaIds: readonly string[], kind: 'refund' | 'printed' | 'shipped'): Promise<void> {
  if (personaIds.length === 0) return;
  await db
    .insertInto('log_queue')
    .values(personaIds.map((persona_id) => ({ persona_id, kind })))
    .onConflict((oc) => oc.columns(['persona_id', 'kind']).doNothing())
    .execute();
}

/** A re-issued Persona is ready: the one it replaces (if its licence still holds) downloads no more and says so. */
export async function replacePersona(db: Db, oldPersonaId: string, newPersonaId: string, at: Date): Promise<void> {
  await db
    .updateTable('personas')
    .set({ licence_end: 'replaced', licence_ended_at: at, replaced_by: newPersonaId })
    .where('persona_id', '=', oldPersonaId)
    .where('licence_end', 'is', null)
    .execute();
}
