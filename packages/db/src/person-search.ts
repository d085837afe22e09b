// How an administrator's search box finds a person (a buyer, a sender of feedback): text with an
// "@" is the beginning of an e-mail address (exactly the address, or any beginning of it);
// anything else is any part of a name, a near spelling of one (pg_trgm's word similarity), or
// the beginning of an address. Each arm is answered by an index: lower(email) text_pattern_ops
// for the prefix, a GIN trigram index on lower(name) for the rest.
import { sql, type RawBuilder } from 'kysely';

/** `text` as a LIKE pattern that matches only itself: %, _ and \ are plain characters. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function personMatch(search: string, columns: { name: string; email: string }): RawBuilder<boolean> {
  const text = search.trim().toLowerCase();
  const email = sql`lower(${sql.ref(columns.email)})`;
  const emailPrefix = sql<boolean>`${email} LIKE ${`${likeLiteral(text)}%`}`;
  if (text.includes('@')) return emailPrefix;
  const name = sql`lower(${sql.ref(columns.name)})`;
  return sql<boolean>`(${name} LIKE ${`%${likeLiteral(text)}%`} OR ${text} <% ${name} OR ${emailPrefix})`;
}
