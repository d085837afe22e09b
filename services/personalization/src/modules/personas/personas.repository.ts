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
  persona: Omit<ReadyPersona, 'signature' | 'key_id' | 'sha256' | 'epub_sha256' | 'mark' | 'pages' | 'recipient_name' | 'message'> & { error: string },
): Promise<boolean> {
  const row = await db
    .insertInto('personas')
    .values({ ...persona, status: 'failed' })
    .onConflict((oc) => oc.column('persona_id').doUpdateSet({ status: 'failed', error: persona.error }).where('personas.status', '<>', 'ready'))
    .returning('persona_id')
    .executeTakeFirst();
  return row !== undefined;
}
