// Writes an uploaded file to disk as it arrives, instead of gathering it in the
// service's memory: ten 10 MB uploads at once held 100 MB and, joined into one
// buffer each on the event loop, stalled it for hundreds of milliseconds (the
// `hostile` bench group). The event loop only hands chunks to the file; the
// untrusted-file thread that judges the upload reads it from disk, and a kept
// upload is moved into its place (a rename on the same disk). The first and
// last kilobyte are kept in memory: what a file is can be told from them.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Bytes kept from each end of a spooled file. */
const EDGE = 1024;

export interface SpooledUpload {
  /** Where the bytes are, until moved or removed. */
  path: string;
  size: number;
  /** The first and the last kilobyte (what sniffing a file's type needs). */
  head: Buffer;
  tail: Buffer;
}

/** Writes `source` to a new file in `dir` (created if need be); on a failure the partial file is removed and the error thrown. */
export async function spoolUpload(source: Readable, dir: string): Promise<SpooledUpload> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${randomUUID()}.upload`);
  let size = 0;
  const head: Buffer[] = [];
  let headLength = 0;
  let tail = Buffer.alloc(0);
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (headLength < EDGE) {
        const piece = chunk.subarray(0, EDGE - headLength);
        head.push(Buffer.from(piece));
        headLength += piece.length;
      }
      tail = chunk.length >= EDGE ? Buffer.from(chunk.subarray(chunk.length - EDGE)) : Buffer.concat([tail, chunk]).subarray(-EDGE);
      done(null, chunk);
    },
  });
  const out = createWriteStream(file);
  try {
    await pipeline(source, measure, out);
  } catch (err) {
    // The file is opened in the background: a source that fails first (a client gone, a damaged
    // part) fails the pipeline before the open is done, and a removal then would run before the
    // file exists and leave it behind once opened. The stream closes only after its open.
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    await rm(file, { force: true });
    throw err;
  }
  return { path: file, size, head: Buffer.concat(head), tail: Buffer.from(tail) };
}

/** Removes spooled files (a request's uploads once it is answered); a file already moved or gone is fine. */
export async function discardUploads(uploads: ReadonlyArray<SpooledUpload | undefined>): Promise<void> {
  await Promise.all(uploads.filter((upload): upload is SpooledUpload => upload !== undefined).map((upload) => rm(upload.path, { force: true })));
}

/** Empties a spool folder of what a stopped process left in it (called at start). */
export async function clearSpool(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.endsWith('.upload')).map((name) => rm(path.join(dir, name), { force: true })));
}
