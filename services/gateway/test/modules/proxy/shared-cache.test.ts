import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { etagMatches, isCompleteAnswer, negotiateCoding, SharedCache, sharedMaxAge, varyNames } from '../../../src/modules/proxy/shared-cache';

describe('sharedMaxAge', () => {
  it.each([
    ['public, max-age=0, must-revalidate, s-maxage=1', 1],
    ['public, s-maxage=600', 60],
    ['public, max-age=60', 0],
    ['private, s-maxage=5', 0],
    ['public, no-store, s-maxage=5', 0],
    ['s-maxage=5', 0],
    [undefined, 0],
    // Repeated header lines, as undici hands them over: read as one.
    [['public', 's-maxage=5'], 5],
    [['public, s-maxage=5', 'private'], 0],
  ])('%s → %d s', (header, seconds) => {
    expect(sharedMaxAge(header)).toBe(seconds);
  });
});

describe('SharedCache', () => {
  const headers = { 'cache-control': 'public, s-maxage=1', 'content-type': 'application/json', etag: '"x"' };

  it('keeps an answer until it expires', () => {
    const cache = new SharedCache();
    expect(cache.store('/a', 200, headers, Buffer.from('{}'), { now: 1000 })).toBe(true);
    expect(cache.get('/a', {}, 1999)?.etag).toBe('"x"');
    expect(cache.get('/a', {}, 2000)).toBeUndefined();
  });

  it('lets the least recently used answer go when full', () => {
    const cache = new SharedCache(2);
    for (const key of ['/a', '/b']) cache.store(key, 200, headers, Buffer.from(`"${key}"`));
    expect(cache.get('/a')).toBeDefined(); // /a used: /b is now the oldest
    cache.store('/c', 200, headers, Buffer.from('"/c"'));
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.get('/a')?.body.toString()).toBe('"/a"');
    expect(cache.get('/c')?.body.toString()).toBe('"/c"');
  });

  it('refuses errors, cookies and oversized bodies', () => {
    const cache = new SharedCache(10, 4);
    expect(cache.store('/a', 404, headers, Buffer.from('{}'))).toBe(false);
    expect(cache.store('/a', 200, { ...headers, 'set-cookie': 'a=1' }, Buffer.from('{}'))).toBe(false);
    expect(cache.store('/a', 200, headers, Buffer.from('12345'))).toBe(false);
  });

  it.each([
    ['a body shorter than its content-length (cut short)', { 'content-length': '40' }, '{"data":[]}'],
    ['a body longer than its content-length', { 'content-length': '2' }, '{"data":[]}'],
    ['a content-length that is not a number', { 'content-length': '11, 11' }, '{"data":[]}'],
    ['an empty body with a JSON type', {}, ''],
    ['an empty body with a JSON type and content-length 0', { 'content-length': '0' }, ''],
    ['JSON cut off mid-way', {}, '{"data":[{"title":"The Backwa'],
    ['text that is not JSON, sent as JSON', {}, 'Service Unavailable'],
    ['invalid JSON of a +json type', { 'content-type': 'application/problem+json' }, '{nope}'],
    ['a gzip-coded body (the coding would be lost: only the identity body is kept)', { 'content-encoding': 'gzip' }, '{"data":[]}'],
  ])('never stores %s: the next read asks upstream', (_label, extra, body) => {
    const cache = new SharedCache();
    expect(cache.store('/api/books', 200, { ...headers, ...extra }, Buffer.from(body))).toBe(false);
    expect(cache.get('/api/books')).toBeUndefined();
  });

  it('stores a whole answer: its exact content-length, JSON that parses, any other type as it is', () => {
    const cache = new SharedCache();
    expect(cache.store('/json', 200, { ...headers, 'content-length': '11' }, Buffer.from('{"data":[]}'))).toBe(true);
    expect(cache.store('/identity', 200, { ...headers, 'content-encoding': 'identity' }, Buffer.from('[]'))).toBe(true);
    expect(cache.store('/text', 200, { ...headers, 'content-type': 'text/plain' }, Buffer.from('not JSON, and not meant to be'))).toBe(true);
    expect(cache.get('/json')?.body.toString()).toBe('{"data":[]}');
  });

  it('judges completeness in one place, for every caller of store', () => {
    expect(isCompleteAnswer({ 'content-type': 'application/json; charset=utf-8', 'content-length': '2' }, Buffer.from('{}'))).toBe(true);
    expect(isCompleteAnswer({ 'content-type': 'application/json; charset=utf-8', 'content-length': '3' }, Buffer.from('{}'))).toBe(false);
    expect(isCompleteAnswer({ 'content-type': 'application/json' }, Buffer.alloc(0))).toBe(false);
    expect(isCompleteAnswer({ 'content-type': 'application/jsonl' }, Buffer.from('{}\n{}'))).toBe(true);
    expect(isCompleteAnswer({ 'content-type': 'application/json', 'content-encoding': 'br' }, Buffer.from('{}'))).toBe(false);
  });

  it("forgets an owner's answers on a write, and refuses an answer fetched before it", () => {
    const cache = new SharedCache();
    cache.store('/api/books?page=1', 200, headers, Buffer.from('1'));
    cache.store('/api/books/abc', 200, headers, Buffer.from('2'));
    cache.store('/api/tags', 200, headers, Buffer.from('3'));
    cache.store('/api/bookshelf', 200, headers, Buffer.from('4'));
    const before = cache.generation;
    cache.invalidate(['/api/books']);
    expect(cache.get('/api/books?page=1')).toBeUndefined();
    expect(cache.get('/api/books/abc')).toBeUndefined();
    expect(cache.get('/api/tags')?.body.toString()).toBe('3');
    // Not a prefix match on a longer name.
    expect(cache.get('/api/bookshelf')?.body.toString()).toBe('4');
    // A read that asked upstream before the write may carry the old state: not kept.
    expect(cache.store('/api/books?page=1', 200, headers, Buffer.from('"stale"'), { generation: before })).toBe(false);
    expect(cache.get('/api/books?page=1')).toBeUndefined();
    expect(cache.store('/api/books?page=1', 200, headers, Buffer.from('"fresh"'), { generation: cache.generation })).toBe(true);
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

describe('Vary', () => {
  const headers = { 'cache-control': 'public, s-maxage=1', 'content-type': 'application/json' };

  it.each([
    [undefined, []],
    ['Accept-Encoding', []],
    ['Accept-Language, accept-encoding, ACCEPT', ['accept-language', 'accept']],
    [
      ['Accept-Language', 'Accept-Language, X-Tenant'],
      ['accept-language', 'x-tenant'],
    ],
    ['Accept-Language, *', null],
  ])('%j names %j', (vary, names) => {
    expect(varyNames(vary)).toEqual(names);
  });

  it('serves an answer only to a request with the values of the headers it varies by', () => {
    const cache = new SharedCache();
    const vary = { ...headers, vary: 'Accept-Language' };
    expect(cache.store('/api/books', 200, vary, Buffer.from('"en"'), { request: { 'accept-language': 'en' } })).toBe(true);
    expect(cache.get('/api/books', { 'accept-language': 'en' })?.body.toString()).toBe('"en"');
    expect(cache.get('/api/books', { 'accept-language': 'fr' })).toBeUndefined();
    expect(cache.get('/api/books', {})).toBeUndefined();
    expect(cache.get('/api/books')).toBeUndefined();
    // One answer per address: the other language's answer takes its place.
    cache.store('/api/books', 200, vary, Buffer.from('"fr"'), { request: { 'accept-language': 'fr' } });
    expect(cache.get('/api/books', { 'accept-language': 'fr' })?.body.toString()).toBe('"fr"');
    expect(cache.get('/api/books', { 'accept-language': 'en' })).toBeUndefined();
    // A header the request lacked is matched by its absence, not by an empty value.
    cache.store('/api/tags', 200, vary, Buffer.from('"any"'));
    expect(cache.get('/api/tags', {})?.body.toString()).toBe('"any"');
    expect(cache.get('/api/tags', { 'accept-language': '' })).toBeUndefined();
  });

  it("sends every hit with Accept-Encoding and the upstream's own names in Vary, whatever the client accepted", () => {
    const cache = new SharedCache();
    cache.store('/a', 200, { ...headers, vary: 'accept-encoding, Accept-Language' }, Buffer.from('1'), { request: { 'accept-encoding': 'br' } });
    const entry = cache.get('/a', { 'accept-encoding': 'gzip' });
    expect(entry?.headers.vary).toBe('Accept-Encoding, accept-language');
    cache.store('/b', 200, headers, Buffer.from('2'));
    expect(cache.get('/b')?.headers.vary).toBe('Accept-Encoding');
  });

  it('never stores Vary: *', () => {
    const cache = new SharedCache();
    expect(cache.store('/a', 200, { ...headers, vary: '*' }, Buffer.from('1'))).toBe(false);
    expect(cache.store('/a', 200, { ...headers, vary: 'Accept, *' }, Buffer.from('1'))).toBe(false);
    expect(cache.get('/a')).toBeUndefined();
  });
});

describe('compressed copies', () => {
  const headers = { 'cache-control': 'public, s-maxage=1', 'content-type': 'application/json; charset=utf-8', etag: '"x"' };
  const json = Buffer.from(JSON.stringify({ data: Array.from({ length: 50 }, (_, i) => ({ title: `Book ${i}`, author: 'An Author' })) }));

  it('adds Brotli and gzip copies of a text body once they are ready, each decoding to the body', async () => {
    const cache = new SharedCache();
    cache.store('/api/books', 200, headers, json);
    expect(cache.get('/api/books')!.encoded).toEqual({});
    await cache.pending;
    const { encoded } = cache.get('/api/books')!;
    expect(brotliDecompressSync(encoded.br!)).toEqual(json);
    expect(gunzipSync(encoded.gzip!)).toEqual(json);
    expect(encoded.br!.length).toBeLessThan(json.length / 4);
  });

  it('leaves small bodies and binary types alone, and never keeps a body the upstream compressed', async () => {
    const cache = new SharedCache();
    cache.store('/small', 200, headers, Buffer.from('{"data":[]}'));
    cache.store('/image', 200, { ...headers, 'content-type': 'image/jpeg' }, json);
    expect(cache.store('/already', 200, { ...headers, 'content-encoding': 'gzip' }, json)).toBe(false);
    await cache.pending;
    for (const key of ['/small', '/image']) expect(cache.get(key)!.encoded).toEqual({});
    expect(cache.get('/already')).toBeUndefined();
  });
});

describe('negotiateCoding', () => {
  const both = { br: Buffer.from('b'), gzip: Buffer.from('g') };
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['GZIP', 'gzip'],
    ['*', 'br'],
    ['identity', undefined],
    ['br;q=0, gzip;q=0', undefined],
    [undefined, undefined],
  ])('%s → %s', (accept, coding) => {
    expect(negotiateCoding(accept, both)).toBe(coding);
  });

  it('only offers copies that exist', () => {
    expect(negotiateCoding('br, gzip', { gzip: Buffer.from('g') })).toBe('gzip');
    expect(negotiateCoding('br, gzip', {})).toBeUndefined();
  });
});

describe('etagMatches', () => {
  it('compares weakly, in a list, and takes *', () => {
    expect(etagMatches('"v1"', '"v1"')).toBe(true);
    expect(etagMatches('W/"v1"', '"v1"')).toBe(true);
    expect(etagMatches('"v0", W/"v1"', '"v1"')).toBe(true);
    expect(etagMatches('*', '"v1"')).toBe(true);
    expect(etagMatches('"v2"', '"v1"')).toBe(false);
    expect(etagMatches(undefined, '"v1"')).toBe(false);
    expect(etagMatches('"v1"', undefined)).toBe(false);
  });
});
