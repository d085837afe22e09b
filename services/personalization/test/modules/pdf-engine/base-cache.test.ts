// The prepared-book cache: one preparation per book however many builds ask at once, failures not
// kept, the least recently used book out when the bytes run over, and nothing kept at a bound of 0.
import { BaseCache } from '../../../src/modules/pdf-engine/base-cache';
import type { PreparedBase } from '../../../src/modules/pdf-engine/prepare-base';

const base = (footprint: number) => ({ footprint }) as PreparedBase;

function preparer(footprint = 100) {
  const calls: string[] = [];
  return {
    calls,
    make: (key: string) => async () => {
      calls.push(key);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return base(footprint);
    },
  };
}

describe('BaseCache', () => {
  it('shares one preparation between builds of the same book at the same time', async () => {
    const cache = new BaseCache(1000);
    const p = preparer();
    const [a, b, c] = await Promise.all([cache.get('book', p.make('book')), cache.get('book', p.make('book')), cache.get('book', p.make('book'))]);
    expect(p.calls).toEqual(['book']);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(await cache.get('book', p.make('book'))).toBe(a);
    expect(cache.stats()).toEqual({ entries: 1, bytes: 100, maxBytes: 1000 });
  });

  it('does not keep a preparation that failed', async () => {
    const cache = new BaseCache(1000);
    let tries = 0;
    const failing = async () => {
      tries += 1;
      throw new Error('unreadable');
    };
    await expect(cache.get('book', failing)).rejects.toThrow('unreadable');
    await expect(cache.get('book', failing)).rejects.toThrow('unreadable');
    expect(tries).toBe(2);
    expect(cache.stats().entries).toBe(0);
  });

  it('lets the least recently used book go when the bytes run over', async () => {
    const cache = new BaseCache(250);
    const p = preparer(100);
    await cache.get('a', p.make('a'));
    await cache.get('b', p.make('b'));
    await cache.get('a', p.make('a')); // a used again: b is now the oldest
    await cache.get('c', p.make('c'));
    expect(cache.stats()).toEqual({ entries: 2, bytes: 200, maxBytes: 250 });
    await cache.get('a', p.make('a'));
    await cache.get('b', p.make('b'));
    expect(p.calls).toEqual(['a', 'b', 'c', 'b']);
  });

  it('keeps nothing at a bound of 0', async () => {
    const cache = new BaseCache(0);
    const p = preparer();
    await cache.get('book', p.make('book'));
    await cache.get('book', p.make('book'));
    expect(p.calls).toEqual(['book', 'book']);
    expect(cache.stats()).toEqual({ entries: 0, bytes: 0, maxBytes: 0 });
  });
});
