// A damaged multipart body is the client's fault: the parser (busboy) says so with plain Errors
// ("Unexpected end of multipart data", "Malformed part header"), which would otherwise be 500s.
import { badRequest } from './http-errors';

/** The error to answer for a failure while reading a multipart body: a chosen one (a status) as it is, the parser's own as a 400. */
export function multipartFailure(err: unknown): Error {
  const status = (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 600) return err as Error;
  return badRequest(`The multipart body is damaged: ${(err as Error).message || 'it cannot be read'}`, 'BAD_MULTIPART');
}

/** Iterates a multipart body's parts, turning the parser's complaints into 400s (errors thrown by the loop's own body pass through untouched). */
export async function* multipartParts<T>(parts: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = parts[Symbol.asyncIterator]();
  let done = false;
  try {
    for (;;) {
      let next: IteratorResult<T>;
      try {
        next = await iterator.next();
      } catch (err) {
        done = true;
        throw multipartFailure(err);
      }
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // Left early (the loop's body threw or broke off): the parser is told, as a for-await would tell it.
    if (!done) await iterator.return?.();
  }
}
