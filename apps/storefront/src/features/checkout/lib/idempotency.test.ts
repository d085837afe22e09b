import { canonicalJson, createIdempotencyKeys, randomUuid } from './idempotency';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('idempotency key policy', () => {
  const counter = () => {
    let n = 0;
    return () => `key-${++n}`;
  };

  it('keeps the same key for the same form content (double submit, retry after closing)', () => {
    const keys = createIdempotencyKeys(counter());
    const body = { book: 'b1', fullName: 'Asha', address: null };
    expect(keys.keyFor(body)).toBe('key-1');
    expect(keys.keyFor({ ...body })).toBe('key-1');
    expect(keys.keyFor({ address: null, fullName: 'Asha', book: 'b1' })).toBe('key-1');
  });

  it('makes a new key when the content changes, and another when it changes back', () => {
    const keys = createIdempotencyKeys(counter());
    expect(keys.keyFor({ deliveryType: 'digital' })).toBe('key-1');
    expect(keys.keyFor({ deliveryType: 'physical' })).toBe('key-2');
    expect(keys.keyFor({ deliveryType: 'physical' })).toBe('key-2');
    expect(keys.keyFor({ deliveryType: 'digital' })).toBe('key-3');
  });

  it('each checkout has its own keys', () => {
    const make = counter();
    const a = createIdempotencyKeys(make);
    const b = createIdempotencyKeys(make);
    expect(a.keyFor({ x: 1 })).not.toBe(b.keyFor({ x: 1 }));
  });

  it('uses random v4 UUIDs by default, also without crypto.randomUUID', () => {
    const keys = createIdempotencyKeys();
    expect(keys.keyFor({ x: 1 })).toMatch(UUID_V4);
    const original = globalThis.crypto.randomUUID;
    try {
      Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
      const a = randomUuid();
      expect(a).toMatch(UUID_V4);
      expect(randomUuid()).not.toBe(a);
    } finally {
      Object.defineProperty(globalThis.crypto, 'randomUUID', { value: original, configurable: true });
    }
  });

  it('canonical JSON sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 1, e: 0 }] } })).toBe('{"a":{"c":[3,{"e":0,"f":1}],"d":2},"b":1}');
  });
});
