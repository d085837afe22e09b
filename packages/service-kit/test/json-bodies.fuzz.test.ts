// Fuzzing the JSON bodies every service reads (issue 21): generated JSON values (deep, wide,
// poisoned keys, NUL characters, huge numbers), JSON text damaged byte by byte, and nesting a
// million deep, through the skeleton's parser and a route's schema. Each is answered 200 or
// a 4xx in the error shape: never a 5xx, never a crash, quickly.
import { Type } from '@sinclair/typebox';
import fc from 'fast-check';
import { fuzzRuns, mutatedBytes } from '@persona/test-kit';
import { createServiceApp } from '../src';

const RUNS = fuzzRuns(300);

function buildApp() {
  const app = createServiceApp({ name: 'fuzz', logger: false, bodyLimit: 1024 * 1024 });
  const Item = Type.Object(
    { name: Type.String({ maxLength: 200 }), tags: Type.Optional(Type.Array(Type.String(), { maxItems: 20 })) },
    { additionalProperties: false },
  );
  app.post('/items', { schema: { body: Item } }, async (request) => ({ data: request.body }));
  app.post('/anything', async (request) => ({ data: typeof request.body }));
  return app;
}

describe('fuzzing JSON bodies', () => {
  const app = buildApp();
  afterAll(() => app.close());

  async function holds(url: string, payload: string | Buffer) {
    const started = performance.now();
    const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
    expect(res.statusCode === 200 || (res.statusCode >= 400 && res.statusCode < 500)).toBe(true);
    if (res.statusCode !== 200) expect(res.json()).toMatchObject({ statusCode: res.statusCode, message: expect.any(String) });
    expect(performance.now() - started).toBeLessThan(3000);
  }

  it('answers generated JSON values, poisoned keys and NUL characters included, with 200 or a 4xx', async () => {
    const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'prototype', 'name', 'tags', 'a\u0000b'));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.jsonValue(), fc.array(tie('node'), { maxLength: 5 }), fc.dictionary(key, tie('node'), { maxKeys: 5 })),
    })).node;
    await fc.assert(
      fc.asyncProperty(value, fc.constantFrom('/items', '/anything'), async (body, url) => holds(url, JSON.stringify(body) ?? 'null')),
      { numRuns: RUNS },
    );
  });

  it('answers JSON text damaged byte by byte with 200 or a 4xx', async () => {
    const seeds = [
      Buffer.from(JSON.stringify({ name: 'The Lighthouse Keeper', tags: ['Fiction', 'Sea'] })),
      Buffer.from('{"a":{"__proto__":{"polluted":1}},"name":"x"}'),
      Buffer.from('{"name":"\\u0000","constructor":{"prototype":{}}}'),
    ];
    await fc.assert(
      fc.asyncProperty(mutatedBytes(seeds), fc.constantFrom('/items', '/anything'), async (bytes, url) => holds(url, bytes)),
      { numRuns: RUNS },
    );
  });

  it('answers nesting a million deep, and a megabyte of keys, without a 5xx', async () => {
    await holds('/anything', `${'['.repeat(500_000)}${']'.repeat(500_000)}`);
    await holds('/anything', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
    await holds('/anything', `{${Array.from({ length: 60_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`);
    await holds('/items', `{"name":"x","tags":[${Array.from({ length: 100_000 }, () => '"t"').join(',')}]}`);
  });
});
