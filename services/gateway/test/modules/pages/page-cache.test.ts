import { PageCache } from '../../../src/modules/pages/page-cache';

describe('the rendered page cache', () => {
  it('keys a page by its address, coding, answers and year, and not at all with a failed answer', () => {
    const key = PageCache.key('/books', 'br', ['{"data":[]}'], new Date('2026-11-24'));
    expect(key).toMatch(/^[\w-]{43}$/);
    expect(PageCache.key('/books', 'br', ['{"data":[]}'], new Date('2026-12-31'))).toBe(key);
    for (const other of [
      PageCache.key('/books?page=2', 'br', ['{"data":[]}'], new Date('2026-11-24')),
      PageCache.key('/books', 'gzip', ['{"data":[]}'], new Date('2026-11-24')),
      PageCache.key('/books', undefined, ['{"data":[]}'], new Date('2026-11-24')),
      PageCache.key('/books', 'br', ['{"data":[1]}'], new Date('2026-11-24')),
      PageCache.key('/books', 'br', ['{"data":[]}', ''], new Date('2026-11-24')),
      PageCache.key('/books', 'br', ['{"data":[]}'], new Date('2027-01-01')),
    ]) {
      expect(other).not.toBe(key);
    }
    // Answers are separated: ["ab", "c"] is not ["a", "bc"].
    expect(PageCache.key('/', 'br', ['ab', 'c'])).not.toBe(PageCache.key('/', 'br', ['a', 'bc']));
    expect(PageCache.key('/books', 'br', ['{"data":[]}', null])).toBeNull();
  });

  it('holds at most its bytes, forgetting the least recently used page first', () => {
    const cache = new PageCache(1000);
    const page = (n: number) => ({ status: 200, body: Buffer.alloc(n) });
    cache.set('a', page(100));
    cache.set('b', page(100));
    cache.set('c', page(100));
    expect(cache.get('a')).toBeDefined();
    for (let i = 0; i < 8; i += 1) cache.set(`more-${i}`, page(100));
    // 1,000 bytes hold ten pages: the eleventh pushes out "b", the least recently used.
    expect(cache.bytes).toBeLessThanOrEqual(1000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    // A page larger than an eighth of the cache is not kept at all.
    cache.set('huge', page(200));
    expect(cache.get('huge')).toBeUndefined();
    // Replacing a page counts its bytes once.
    const before = cache.bytes;
    cache.set('a', page(100));
    expect(cache.bytes).toBe(before);
  });
});
