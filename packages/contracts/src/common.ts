// Shapes every route shares: the success and error envelopes, ids, paging.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

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

export const PageMeta = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  page: Type.Integer({ minimum: 1 }),
  limit: Type.Integer({ minimum: 1 }),
});
export type PageMeta = Static<typeof PageMeta>;

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 24;

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })),
};

export const DataEnvelope = <T extends TSchema>(data: T) =>
  Type.Object({ data, message: Type.Optional(Type.String()) });

export const ListEnvelope = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), meta: PageMeta, message: Type.Optional(Type.String()) });

export interface Envelope<T> {
  data: T;
  message?: string;
}
export interface ListOf<T> {
  data: T[];
  meta: PageMeta;
  message?: string;
}
