import { SharedCache, sharedMaxAge } from '../src/modules/proxy/shared-cache';

describe('sharedMaxAge', () => {
  it.each([
    ['public, max-age=0, must-revalidate, s-maxage=1', 1],
    ['public, s-maxage=600', 60],
    ['public, max-age=60', 0],
    ['private, s-maxage=5', 0],
    ['public, no-store, s-maxage=5', 0],
    ['s-maxage=5', 0],
    [undefined, 0],
  ])('%s → %d s', (header, seconds) => {
    expect(sharedMaxAge(header)).toBe(seconds);
  });
});

describe('SharedCache', () => {
  const headers = { 'cache-control': 'public, s-maxage=1', 'content-type': 'application/json', etag: '"x"' };

  it('keeps an answer until it expires', () => {
    const cache = new SharedCache();
    expect(cache.store('/a', 200, headers, Buffer.from('{}'), 1000)).toBe(true);
    expect(cache.get('/a', 1999)?.etag).toBe('"x"');
    expect(cache.get('/a', 2000)).toBeUndefined();
  });

  it('refuses errors, cookies and oversized bodies', () => {
    const cache = new SharedCache(10, 4);
    expect(cache.store('/a', 404, headers, Buffer.from('{}'))).toBe(false);
    expect(cache.store('/a', 200, { ...headers, 'set-cookie': 'a=1' }, Buffer.from('{}'))).toBe(false);
    expect(cache.store('/a', 200, headers, Buffer.from('12345'))).toBe(false);
  });

  it('evicts the oldest entry when full', () => {
    const cache = new SharedCache(2);
    cache.store('/1', 200, headers, Buffer.from('1'));
    cache.store('/2', 200, headers, Buffer.from('2'));
    cache.store('/3', 200, headers, Buffer.from('3'));
    expect(cache.get('/1')).toBeUndefined();
    expect(cache.get('/3')?.body.toString()).toBe('3');
  });
});
