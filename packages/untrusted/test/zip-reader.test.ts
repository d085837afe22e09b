// The ZIP reader: entries read through the central directory, each counted on what it
// produces; what an honest archive never does (overlapping entries, a size it does not hold,
// ZIP64, a directory outside the file) refuses it.
import { manyEntriesEpub, overlappingEntriesEpub, plainEpub, zipOf } from '@persona/test-kit';
import { BudgetMeter, DOCUMENT_BUDGET, type FileBudget } from '../src/budget';
import { readZip } from '../src/zip-reader';

const meter = (over: Partial<FileBudget> = {}) => new BudgetMeter({ ...DOCUMENT_BUDGET, ...over }, 'This EPUB');

describe('readZip', () => {
  it('reads every entry, stored or deflated, and only those asked for', () => {
    const zip = zipOf([
      { name: 'a.txt', data: Buffer.from('stored text'), method: 0 },
      { name: 'b.xhtml', data: Buffer.from('<p>deflated</p>'.repeat(50)) },
    ]);
    expect(readZip(zip, meter()).map((e) => [e.name, e.data.toString()])).toEqual([
      ['a.txt', 'stored text'],
      ['b.xhtml', '<p>deflated</p>'.repeat(50)],
    ]);
    const m = meter();
    expect(readZip(zip, m, { want: (n) => n.endsWith('.xhtml') }).map((e) => e.name)).toEqual(['b.xhtml']);
    expect(m.producedBytes).toBe(750);
    expect(m.counted('entries')).toBe(2);
  });

  it('refuses entries that overlap (finding 3: eight records on one 64 MB stream), having unpacked nothing', () => {
    const m = meter();
    expect(() => readZip(overlappingEntriesEpub(), m)).toThrow(
      expect.objectContaining({ statusCode: 422, code: 'UNREADABLE_FILE', message: expect.stringMatching(/overlap, as only a zip bomb's do$/) }),
    );
    expect(m.producedBytes).toBe(0);
  });

  it('stops an entry one piece past the size it states, and refuses it even when asked to search on', () => {
    const zip = zipOf([
      { name: 'ok.xhtml', data: Buffer.from('fine') },
      { name: 'liar.xhtml', data: Buffer.alloc(0), spaces: 100 * 1024 * 1024, declaredSize: 10 },
    ]);
    const m = meter();
    expect(() => readZip(zip, m)).toThrow(/does not hold the 10 bytes its directory states/);
    expect(m.producedBytes).toBeLessThan(8 * 1024 * 1024);
    // More than it states is no damage: a search through a damaged copy refuses it all the same.
    expect(() => readZip(zip, meter(), { skipDamaged: true })).toThrow(/does not hold the 10 bytes its directory states/);
  });

  it('passes over an entry that holds less than it states, or cannot be unpacked, when asked to search on', () => {
    const damaged = zipOf([
      { name: 'ok.xhtml', data: Buffer.from('fine') },
      { name: 'short.xhtml', data: Buffer.from('cut'), declaredSize: 10 },
    ]);
    expect(() => readZip(damaged, meter())).toThrow(/does not hold the 10 bytes its directory states/);
    expect(readZip(damaged, meter(), { skipDamaged: true }).map((e) => e.name)).toEqual(['ok.xhtml']);
    const garbled = zipOf([
      { name: 'ok.xhtml', data: Buffer.from('fine') },
      { name: 'garbled.xhtml', data: Buffer.from([0xff, 0xff, 0xff, 0xff]), method: 0 },
    ]);
    // A stored entry read as deflated: its bytes are no deflate stream.
    garbled.writeUInt16LE(8, garbled.lastIndexOf(Buffer.from('PK\x01\x02', 'latin1')) + 10);
    expect(readZip(garbled, meter(), { skipDamaged: true }).map((e) => e.name)).toEqual(['ok.xhtml']);
  });

  it('counts the bytes entries produce against the budget, each and in all', () => {
    const zip = zipOf([
      { name: 'a', data: Buffer.alloc(0), spaces: 3 * 1024 * 1024 },
      { name: 'b', data: Buffer.alloc(0), spaces: 3 * 1024 * 1024 },
    ]);
    expect(() => readZip(zip, meter({ streamBytes: 2 * 1024 * 1024 }))).toThrow(
      expect.objectContaining({
        statusCode: 413,
        code: 'UNPACKS_TOO_LARGE',
        message: 'This EPUB would have more than 2 MB in one of its parts once unpacked, more than this shop reads',
      }),
    );
    expect(() => readZip(zip, meter({ totalBytes: 5 * 1024 * 1024 }))).toThrow(/more than 5 MB in all once unpacked/);
    expect(readZip(zip, meter()).map((e) => e.data.length)).toEqual([3 * 1024 * 1024, 3 * 1024 * 1024]);
  });

  it('counts the entries it walks, whatever the end record says', () => {
    expect(() => readZip(manyEntriesEpub(60_000), meter())).toThrow(expect.objectContaining({ code: 'TOO_MANY_ENTRIES' }));
    expect(readZip(manyEntriesEpub(100), meter({ entries: 100 }))).toHaveLength(100);
  });

  it('refuses what is not a ZIP, a directory outside the file, and ZIP64', () => {
    expect(() => readZip(Buffer.from('not a zip at all'), meter())).toThrow('This EPUB cannot be read: it is not a ZIP archive (no central directory)');
    const broken = plainEpub();
    broken.writeUInt32LE(broken.length, broken.length - 6); // the directory's offset past the end
    expect(() => readZip(broken, meter())).toThrow(/central directory lies outside the archive/);
    const zip64 = plainEpub();
    const end = zip64.length - 22;
    const directory = zip64.readUInt32LE(end + 16);
    zip64.writeUInt32LE(0xffffffff, directory + 20);
    expect(() => readZip(zip64, meter())).toThrow(/a ZIP64 archive, which no EPUB needs/);
  });
});
