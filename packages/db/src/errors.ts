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
  const code = pgErrorCode(err);
  return (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'ETIMEDOUT' ||
    code === '57P01' || // admin_shutdown
    code === '57P03' || // cannot_connect_now
    /Connection terminated|timeout exceeded when trying to connect/i.test(String((err as Error)?.message))
  );
}
