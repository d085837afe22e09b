// The file store on this machine's disk: the embedded shop's, and a single process's. Written to a
// temporary name and renamed into place, so a reader never sees half a file.
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, type FileBody, type FileStore, type StoredFile } from './file-store';

export class LocalFileStore implements FileStore {
  readonly kind = 'local' as const;

  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    assertKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, body: FileBody): Promise<void> {
    const target = this.resolve(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.${randomUUID()}.tmp`;
    try {
      if (body instanceof Uint8Array) await writeFile(temp, body);
      else if (body instanceof Readable) {
        const out = createWriteStream(temp);
        try {
          await pipeline(body, out);
        } finally {
          // Opened in the background: a body that fails first would have the removal below run
          // before the file exists, and leave it once opened. The stream closes only after its open.
          if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
        }
      } else {
        try {
          await rename(body.path, target);
          return;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
          // Another disk: copied, renamed into place, then the source removed.
          await copyFile(body.path, temp);
          await rename(temp, target);
          await rm(body.path, { force: true });
          return;
        }
      }
      await rename(temp, target);
    } finally {
      await rm(temp, { force: true });
    }
  }

  async get(key: string): Promise<StoredFile | null> {
    const file = this.resolve(key);
    const size = await this.size(key);
    if (size === null) return null;
    return { stream: createReadStream(file), size };
  }

  async size(key: string): Promise<number | null> {
    try {
      const info = await stat(this.resolve(key));
      return info.isFile() ? info.size : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.resolve(key), { force: true });
  }

  async presignedUrl(): Promise<string | null> {
    return null;
  }
}
