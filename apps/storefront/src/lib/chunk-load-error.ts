/** A lazily loaded page whose file did not arrive (offline, or a deploy replaced it), as each browser words it. */
export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && /dynamically imported module|Importing a module script failed/i.test(error.message);
}
