// The page links of a list paged by cursor (`after` a row, `before` a row): read, or refused with
// a 400 a person can act on. The decoding is the list's own (@persona/db decodeCursor with its
// keys), so a cursor from another list or edited by hand never reaches a query.

import { badRequest } from './http-errors';

export const BAD_CURSOR_MESSAGE = 'That page link is no longer valid; start again from the first page';

export function readCursors<T>(query: { after?: string; before?: string }, decode: (text: string) => T | null): { after?: T; before?: T } {
  if (query.after !== undefined && query.before !== undefined) throw badRequest('Ask for the page after a row or before it, not both', 'BAD_CURSOR');
  const read = (text: string | undefined) => {
    if (text === undefined) return undefined;
    const value = decode(text);
    if (value === null) throw badRequest(BAD_CURSOR_MESSAGE, 'BAD_CURSOR');
    return value;
  };
  return { after: read(query.after), before: read(query.before) };
}
