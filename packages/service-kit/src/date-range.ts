// A list's date filters (`from`, `to`: YYYY-MM-DD) as PostgreSQL can compare them: the date
// format alone lets year 0000 through (a 500), and a range that ends before it starts finds
// nothing for a reason the administrator should be told.
import { badRequest } from './http-errors';

export function checkDateRange(query: { from?: string; to?: string }): void {
  for (const field of ['from', 'to'] as const) {
    const value = query[field];
    if (value !== undefined && value < '1900-01-01') throw badRequest(`query field "${field}" must be a date from 1900-01-01 on`);
  }
  if (query.from && query.to && query.from > query.to) throw badRequest('query field "from" must be a date on or before "to"');
}
