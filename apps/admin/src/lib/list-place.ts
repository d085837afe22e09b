// Where a person is in a long list (orders, feedback, subscribers, the audit log): a page number
// and the server's cursor of the row it follows (`after`) or precedes (`before`), kept in the URL
// so reload, back and forward return to the same rows however deep, and no request ever counts
// or skips a million rows. A page number typed in without a cursor is an offset page.
import type { PageMeta } from '@persona/contracts';

export interface ListPlace {
  page: number;
  after?: string;
  before?: string;
}

const CURSOR = /^[A-Za-z0-9_-]{1,200}$/;
const PLACE_KEYS = ['page', 'after', 'before'] as const;

export function readPlace(params: URLSearchParams): ListPlace {
  const page = Number(params.get('page'));
  const place: ListPlace = { page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1 };
  const after = params.get('after');
  const before = params.get('before');
  if (after && CURSOR.test(after)) place.after = after;
  else if (before && CURSOR.test(before)) place.before = before;
  return place;
}

/** `params` with the place written in (the first page writes nothing), the other parameters kept. */
export function writePlace(params: URLSearchParams, place: ListPlace): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of PLACE_KEYS) next.delete(key);
  if (place.page > 1) next.set('page', String(place.page));
  if (place.page > 1 && place.after) next.set('after', place.after);
  if (place.page > 1 && place.before) next.set('before', place.before);
  return next;
}

/** `params` without a place: a new filter or search starts at the first page. */
export function withoutPlace(params: URLSearchParams): URLSearchParams {
  return writePlace(params, { page: 1 });
}

/** `params` with one filter (a search, a type) set or cleared, back at the first page. */
export function withFilter(params: URLSearchParams, name: string, value: string): URLSearchParams {
  const next = withoutPlace(params);
  if (value) next.set(name, value);
  else next.delete(name);
  return next;
}

/** The API's paging fields for a place. */
export function placeQuery(place: ListPlace, limit: number): { page: number; limit: number; after?: string; before?: string } {
  return { page: place.page, limit, ...(place.after ? { after: place.after } : {}), ...(place.before ? { before: place.before } : {}) };
}

/** The next (older) page, or null on the last. */
export function olderPlace(place: ListPlace, meta: PageMeta): ListPlace | null {
  return meta.next ? { page: place.page + 1, after: meta.next } : null;
}

/** The previous (newer) page, or null on the first; back to page 1 is the first page itself, whatever arrived since. */
export function newerPlace(place: ListPlace, meta: PageMeta): ListPlace | null {
  if (!meta.prev && place.page <= 1) return null;
  if (!meta.prev) return { page: 1 };
  return place.page <= 2 ? { page: 1 } : { page: place.page - 1, before: meta.prev };
}

/** "Page 3 of 12", or "Page 3 of 500+" when counting stopped at the cap. */
export function pageLabel(place: ListPlace, meta: PageMeta): string {
  const pages = Math.max(1, Math.ceil(meta.total / meta.limit), place.page);
  return `Page ${place.page.toLocaleString('en-IN')} of ${pages.toLocaleString('en-IN')}${meta.totalCapped ? '+' : ''}`;
}

/** How many pages the list has as counted (at least one). */
export function pageCount(meta: PageMeta): number {
  return Math.max(1, Math.ceil(meta.total / meta.limit));
}

/**
 * Where a page number typed in leads: that page (an offset page, which the orders list finds from
 * its day counts as fast however deep), or null for what is no page of the list (not a whole
 * number, 0, past the last, or past the 100,000 pages the API answers).
 */
export function jumpPlace(typed: string, meta: PageMeta): ListPlace | null {
  const text = typed.trim();
  if (!/^\d{1,6}$/.test(text)) return null;
  const page = Number(text);
  return page >= 1 && page <= Math.min(pageCount(meta), 100_000) ? { page } : null;
}

/** "1,234", or "10,000+" when counting stopped at the cap. */
export function countText(meta: PageMeta): string {
  return `${meta.total.toLocaleString('en-IN')}${meta.totalCapped ? '+' : ''}`;
}

/** "10,000+ orders", "1 order". */
export function countLabel(meta: PageMeta, one: string, many: string): string {
  return `${countText(meta)} ${meta.total === 1 && !meta.totalCapped ? one : many}`;
}
