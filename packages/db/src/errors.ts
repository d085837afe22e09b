// Recognises PostgreSQL errors by SQLSTATE; pg and PGlite both expose `code`.
export const PG_ERROR = {
  UNIQUE_VIOLATION: '23505',
  FOREIGN_KEY_VIOLATION: '23503',
  SERIALIZATION_FAILURE: '40001',
} as const;

export function pgErrorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export const isUniqueViolation = (err: unknown) => pgErrorCode(err) === PG_ERROR.UNIQUE_VIOLATION;
export const isForeignKeyViolation = (err: unknown) => pgErrorCode(err) === PG_ERROR.FOREIGN_KEY_VIOLATION;

/** True for errors meaning the database could not be reached at all. */
export function isConnectionError(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError) return true;
  const code = pgErrorCode(err);
  return (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'ETIMEDOUT' ||
    code === 'EPIPE' ||
    code === 'EHOSTUNREACH' ||
    code === 'ENETUNREACH' ||
    code === '57P01' || // admin_shutdown
    code === '57P02' || // crash_shutdown
    code === '57P03' || // cannot_connect_now
    code === '53300' || // too_many_connections
    /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed/i.test(String((err as Error)?.message))
  );
}

/**
 * The database cannot be reached right now (refused, reset, timed out, shutting
 * down). Thrown by the pg pool of `openDatabase` in place of the driver's error,
 * which stays as `cause`. Carries `statusCode` 503 so an HTTP error handler
 * answers "Service Unavailable" (with `code` DATABASE_UNAVAILABLE) instead of a
 * 500: the request may be retried once the database is back.
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
  readonly statusCode = 503;
  readonly code = 'DATABASE_UNAVAILABLE';
  /** Its status and message are meant for the client (the service kit's error handler sends them as they are). */
  readonly expose = true;

  constructor(cause: unknown) {
    // The driver's message (host, port) stays in `cause`, for the logs only.
    super('The database is not answering right now; please try again shortly', { cause });
  }
}

/** `err` as a DatabaseUnavailableError when it is a connection failure, else unchanged. */
export function asUnavailable(err: unknown): unknown {
  return !(err instanceof DatabaseUnavailableError) && isConnectionError(err) ? new DatabaseUnavailableError(err) : err;
}
