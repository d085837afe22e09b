import { sql, type Kysely, type Selectable } from 'kysely';
import type { PersonalizationDB, PersonasTable } from '../../db';

type Db = Kysely<PersonalizationDB>;
export type PersonaRow = Selectable<PersonasTable>;

export const findPersona = (db: Db, personaId: string) => db.selectFrom('personas').selectAll().where('persona_id', '=', personaId).executeTakeFirst();
export const findPersonaBySha256 = (db: Db, sha256: string) =>
  db.selectFrom('personas').selectAll().where('sha256', '=', sha256).where('status', '=', 'ready').executeTakeFirst();
export const findPersonaByEpubSha256 = (db: Db, sha256: string) =>
  db.selectFrom('personas').selectAll().where('epub_sha256', '=', sha256).where('status', '=', 'ready').executeTakeFirst();

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
  persona: Omit<ReadyPersona, 'signature' | 'key_id' | 'sha256' | 'epub_sha256' | 'pages' | 'recipient_name' | 'message'> & { error: string },
): Promise<boolean> {
  const row = await db
    .insertInto('personas')
    .values({ ...persona, status: 'failed' })
    .onConflict((oc) => oc.column('persona_id').doUpdateSet({ status: 'failed', error: persona.error }).where('personas.status', '<>', 'ready'))
    .returning('persona_id')
    .executeTakeFirst();
  return row !== undefined;
}
