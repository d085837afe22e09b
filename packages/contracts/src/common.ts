// Shapes every route shares: the success and error envelopes, ids, paging.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** Text a person typed into a search box: anything but control characters (a NUL cannot even be stored). */
export const PLAIN_TEXT_PATTERN = '^[^\\u0000-\\u001f\\u007f]*$';
export const PlainText = (options: { maxLength: number; minLength?: number }) => Type.String({ ...options, pattern: PLAIN_TEXT_PATTERN });

/** Ids are UUIDs; a malformed one is refused by validation with a 400. */
export const Id = Type.String({ format: 'uuid', description: 'UUID' });
export const IdParams = Type.Object({ id: Id }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;

/** The query of a route that takes none: an unknown field (`?__proto__=…`) is refused, as in a body, not ignored. */
export const NoQuery = Type.Object({}, { additionalProperties: false });

export const ErrorBody = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
  code: Type.Optional(Type.String()),
  requestId: Type.Optional(Type.String()),
});
export type ErrorBody = Static<typeof ErrorBody>;

/**
 * Lists that can grow without bound (orders, feedback, subscribers, the audit log) count their
 * matches only up to this many: past it `totalCapped` is true and `total` is this number, so no
 * request ever counts a million rows.
 */
export const COUNT_CAP = 10_000;

/**
 * An administrator's search for a person (orders, feedback, subscribers) counts its matches up to
 * this many: a search is for finding someone, and a count past it costs a scan ("1,000+").
 */
export const PERSON_SEARCH_COUNT_CAP = 1_000;

export const PageMeta = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  page: Type.Integer({ minimum: 1 }),
  limit: Type.Integer({ minimum: 1 }),
  /** True when there are more than `total` matches (counting stopped at COUNT_CAP). */
  totalCapped: Type.Optional(Type.Boolean()),
  /** Cursor of the next (older) page, null on the last; lists paged by cursor only. */
  next: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** Cursor of the previous (newer) page, null on the first; lists paged by cursor only. */
  prev: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type PageMeta = Static<typeof PageMeta>;

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 24;

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })),
};

/** An opaque page cursor (meta.next / meta.prev of the page before): base64url text. */
export const Cursor = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' });

/**
 * Keyset paging for the lists that grow without bound: `after` answers the page after the
 * cursor's row, `before` the page before it, each from an index in the time of one page however
 * deep. `page` is then only echoed back (for "Page N" in a screen), not used to skip rows.
 */
export const CursorQuery = {
  after: Type.Optional(Cursor),
  before: Type.Optional(Cursor),
};

export const DataEnvelope = <T extends TSchema>(data: T) => Type.Object({ data, message: Type.Optional(Type.String()) });

export const ListEnvelope = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item), meta: PageMeta, message: Type.Optional(Type.String()) });

export interface Envelope<T> {
  data: T;
  message?: string;
}
export interface ListOf<T> {
  data: T[];
  meta: PageMeta;
  message?: string;
}

/**
 * A route's answer that is a file, not JSON (a PDF, a picture, a CSV): its media types, for the
 * route's response schema and the OpenAPI document. Fastify sends the bytes as they are.
 */
export const FileAnswer = (description: string, mediaTypes: readonly string[]) => ({
  description,
  // Bytes, a stream or text: whatever the handler sends is the file.
  content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: Type.Unsafe<unknown>({ type: 'string', format: 'binary' }) }])),
});

/** The body of a POST that takes none: nothing at all, or an empty JSON object. */
export const NoBody = Type.Union([Type.Null(), Type.Object({}, { additionalProperties: false })]);
