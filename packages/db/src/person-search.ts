// How an administrator's search box finds a person (a buyer, a sender of feedback): text with an
// "@" is the beginning of an e-mail address (exactly the address, or any beginning of it);
// anything else is any part of a name or the beginning of an address, and only when that finds
// no one, a near spelling of a name (pg_trgm's word similarity, `<%`): a common surname never
// pays for a similarity per row. Each arm is answered by an index: lower(email)
// text_pattern_ops for the prefix, a GIN trigram index on lower(name) for the rest.
import { sql, type RawBuilder } from 'kysely';

/** `text` as a LIKE pattern that matches only itself: %, _ and \ are plain characters. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** As typed (`written`), or the near spellings of a name, tried when the written search finds no one. */
export type PersonSpelling = 'written' | 'near';

export function personMatch(search: string, columns: { name: string; email: string }, spelling: PersonSpelling = 'written'): RawBuilder<boolean> {
  const text = search.trim().toLowerCase();
  const name = sql`lower(${sql.ref(columns.name)})`;
  if (spelling === 'near') return sql<boolean>`${text} <% ${name}`;
  const emailPrefix = sql<boolean>`lower(${sql.ref(columns.email)}) LIKE ${`${likeLiteral(text)}%`}`;
  if (text.includes('@')) return emailPrefix;
  return sql<boolean>`(${name} LIKE ${`%${likeLiteral(text)}%`} OR ${emailPrefix})`;
}

/** Whether a search that found no one is worth trying again by near spelling (a name of three letters or more). */
export function hasNearSpelling(search: string | undefined): boolean {
  const text = search?.trim() ?? '';
  return text.length >= 3 && !text.includes('@');
}

/**
 * A list searched for a person: as written, and only when that matches nothing, by near
 * spelling (`read` answers one spelling's page, or whether it has any row).
 */
export async function writtenThenNear<T extends { total: number }>(search: string | undefined, read: (spelling: PersonSpelling) => Promise<T>): Promise<T> {
  const written = await read('written');
  return written.total > 0 || !hasNearSpelling(search) ? written : read('near');
}

/** The spelling a whole list (an export) is read in: as written when that finds anyone (`exists`), else near. */
export async function spellingFor(search: string | undefined, exists: (spelling: PersonSpelling) => Promise<boolean>): Promise<PersonSpelling> {
  return !hasNearSpelling(search) || (await exists('written')) ? 'written' : 'near';
}
