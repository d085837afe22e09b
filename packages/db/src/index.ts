export {
  openDatabase,
  openPglite,
  dumpPgliteTemplate,
  isPostgresSize,
  assertSchemaName,
  type Database,
  type DatabaseSource,
  type PgliteOptions,
} from './database';
export { folderMigrations, migrateToLatest, pendingMigrations } from './migrate';
export { PgliteDialect, sharePglite, quoteIdent, type SharedPglite } from './pglite-dialect';
export { Mutex } from './mutex';
export { createReadRouter, primaryOnly, parseLsn, type ReadRouter, type ReadOptions, type ReadRouterOptions } from './read-router';
export { PG_ERROR, pgErrorCode, isUniqueViolation, isForeignKeyViolation, isConnectionError, DatabaseUnavailableError } from './errors';
export { parseInt8, parseNumeric } from './type-parsers';
export type { Refine } from './refine';
export type { GeneratedColumn, Json, JsonArray, JsonObject, JsonPrimitive, JsonValue, Numeric, Timestamp } from './generated-columns';
export { sql, type Kysely, type Transaction, type Selectable, type Insertable, type Updateable, type Generated, type ColumnType } from 'kysely';
export {
  encodeCursor,
  decodeCursor,
  keysetPage,
  cappedCount,
  countedPage,
  pageMeta,
  type KeysetColumn,
  type CursorValue,
  type PageRequest,
  type KeysetPage,
  type CountedPage,
} from './paging';
export { likeLiteral, personMatch, hasNearSpelling, writtenThenNear, spellingFor, type PersonSpelling } from './person-search';
export { leadership, whileLeading, type Leadership, type LeadershipOptions, type LeadershipLogger } from './leadership';
