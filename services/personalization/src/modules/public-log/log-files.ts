// The public log's files in the service's file store (issue 27), under "log/": the C2SP tlog-tiles
// layout (`checkpoint`, `tile/<L>/<N>[.p/<W>]`, `tile/entries/<N>[.p/<W>]`), read by the writer (the
// right edge it appends to), served by GET /api/log/* and audited like any reader's copy.
import type { Readable } from 'node:stream';
import type { FileStore } from '@persona/file-store';
import { entriesPath, parseTilePath, tilePath, type EntrySource, type LogReader, type TileSource } from '@persona/transparency-log';

const PREFIX = 'log/';

async function readAll(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** How long a reader may keep a file: a full tile or bundle never changes; a partial one and the checkpoint do. */
export function logCacheControl(path: string): string {
  const address = parseTilePath(path);
  // The gateway keeps a shared copy for at most a minute (s-maxage): enough to spare the file store.
  return address && address.width === 256 ? 'public, max-age=31536000, s-maxage=60, immutable' : 'public, max-age=2, s-maxage=2';
}

/** Whether `path` names a file of the log: its checkpoint, a hash tile or an entry bundle. */
export const isLogPath = (path: string) => path === 'checkpoint' || parseTilePath(path) !== null;

export class LogFiles implements TileSource, EntrySource, LogReader {
  constructor(private readonly store: FileStore) {}

  async read(path: string): Promise<Uint8Array> {
    const file = await this.store.get(PREFIX + path);
    if (!file) throw new Error(`the log has no file ${path}`);
    return readAll(file.stream);
  }

  open(path: string): Promise<{ stream: Readable; size: number } | null> {
    return isLogPath(path) ? this.store.get(PREFIX + path) : Promise.resolve(null);
  }

  write(path: string, bytes: Uint8Array): Promise<void> {
    return this.store.put(PREFIX + path, bytes, { contentType: path === 'checkpoint' ? 'text/plain; charset=utf-8' : 'application/octet-stream' });
  }

  tile(level: number, index: number, width: number): Promise<Uint8Array> {
    return this.read(tilePath(level, index, width));
  }

  bundle(index: number, width: number): Promise<Uint8Array> {
    return this.read(entriesPath(index, width));
  }

  async checkpoint(): Promise<string> {
    return new TextDecoder().decode(await this.read('checkpoint'));
  }
}
