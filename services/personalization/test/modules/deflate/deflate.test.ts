import { randomBytes } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { deflate } from '../../../src/modules/deflate/deflate';

describe('deflate', () => {
  const samples: Record<string, Uint8Array> = {
    empty: new Uint8Array(0),
    'one byte': Buffer.from('q'),
    'content stream': Buffer.from(
      Array.from({ length: 500 }, (_, i) => `BT /serif 10.5 Tf 1 0 0 1 52 ${(500 - i * 14.6).toFixed(1)} Tm <0012003400560078> Tj ET`).join('\n'),
    ),
    'random (stored blocks)': randomBytes(70_000),
    'one byte repeated': new Uint8Array(200_000).fill(7),
    'every byte value': Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256),
  };

  it.each(Object.entries(samples))('round-trips %s through zlib', (_, data) => {
    const compressed = deflate(data);
    expect(Buffer.compare(inflateSync(compressed), Buffer.from(data))).toBe(0);
    expect(compressed.length).toBeLessThanOrEqual(data.length + 6 + 5 * Math.ceil(Math.max(1, data.length) / 65535));
  });

  it('compresses text and repetition', () => {
    expect(deflate(samples['content stream']).length).toBeLessThan(samples['content stream'].length / 5);
    expect(deflate(samples['one byte repeated']).length).toBeLessThan(2000);
  });

  it('is deterministic and leaves no state between calls', () => {
    const first = deflate(samples['content stream']);
    deflate(samples['every byte value']);
    expect(Buffer.compare(deflate(samples['content stream']), first)).toBe(0);
  });
});
