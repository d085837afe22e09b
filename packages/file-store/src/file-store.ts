// One store for every file the shop keeps (issue 25): covers and their image copies, sample and
// full PDFs, Persona PDFs and EPUBs, invoices. A file is named by a key the shop makes
// ("personas/PRS-….pdf"), never by what a client sent. Two drivers: the local disk (the embedded
// shop's default, one process) and S3 (any S3-compatible store: every replica reads what any
// replica wrote). Files are streamed both ways; a download may instead be handed a short-lived
// presigned address (S3 only).
import type { Readable } from 'node:stream';

/** What a file is written from: its bytes, a stream, or a file on this machine's disk (moved in, not copied, where it can be). */
export type FileBody = Uint8Array | Readable | { path: string };

export interface StoredFile {
  stream: Readable;
  size: number;
}

export interface PutOptions {
  /** The file's media type, kept with it (S3) and answered with it. */
  contentType?: string;
}

export interface PresignOptions {
  /** How long the address works, seconds (at most PRESIGN_MAX_SECONDS). */
  expiresInS?: number;
  /** The name the browser saves it under (Content-Disposition: attachment). */
  downloadName?: string;
  contentType?: string;
}

/** A presigned address never outlives five minutes: a link copied from a page stops working soon. */
export const PRESIGN_MAX_SECONDS = 300;

export interface FileStore {
  /** Which driver: `local` or `s3`. */
  readonly kind: 'local' | 's3';
  /** Writes the file whole under `key`; a reader never sees half of it. */
  put(key: string, body: FileBody, options?: PutOptions): Promise<void>;
  /** The file as a stream and its size; null when there is none. */
  get(key: string): Promise<StoredFile | null>;
  /** Its size, or null when there is none. */
  size(key: string): Promise<number | null>;
  /** Removes it (nothing when there is none). */
  delete(key: string): Promise<void>;
  /** A short-lived address that downloads it without the shop in between; null where the driver has none (local). */
  presignedUrl(key: string, options?: PresignOptions): Promise<string | null>;
}

/** A key the shop made: folders of lower-case words (a dot allowed, as in a log tile's `000.p`), a file name of letters, digits, dots, dashes and underscores; never `..`. */
export const FILE_KEY = /^(?:[a-z0-9][a-z0-9.-]*\/)*[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function assertKey(key: string): void {
  if (!FILE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.') || key.length > 512) {
    throw new Error(`invalid file key ${JSON.stringify(key)}`);
  }
}
