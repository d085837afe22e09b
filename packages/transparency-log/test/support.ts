// A log in memory for the tests: its tiles and bundles in maps, appended to as the shop would.
import { appendEntries, type EntrySource, entriesPath, type TileSource, tilePath, type TreeHasher } from '../src';

export class MemoryLog implements TileSource, EntrySource {
  readonly files = new Map<string, Uint8Array>();
  size = 0;

  constructor(readonly hasher: TreeHasher) {}

  async tile(level: number, index: number, width: number): Promise<Uint8Array> {
    const bytes = this.files.get(tilePath(level, index, width));
    if (!bytes) throw new Error(`no tile ${tilePath(level, index, width)}`);
    return bytes;
  }

  async bundle(index: number, width: number): Promise<Uint8Array> {
    const bytes = this.files.get(entriesPath(index, width));
    if (!bytes) throw new Error(`no bundle ${entriesPath(index, width)}`);
    return bytes;
  }

  async append(entries: readonly Uint8Array[]): Promise<void> {
    const appended = await appendEntries(this.hasher, this.size, this, this, entries);
    for (const t of appended.tiles) {
      const path = tilePath(t.level, t.index, t.width);
      const before = this.files.get(path);
      // A tile once written never changes: the same path always holds the same bytes.
      if (before && Buffer.compare(Buffer.from(before), Buffer.from(t.bytes)) !== 0) throw new Error(`${path} was written twice with different bytes`);
      this.files.set(path, t.bytes);
    }
    for (const b of appended.bundles) this.files.set(entriesPath(b.index, b.width), b.bytes);
    this.size = appended.size;
  }
}

export const entry = (i: number) => new TextEncoder().encode(`persona entry ${i}`);
