import { MAX_ENTRIES, ScrollPositions, scrollTargetFor } from './scroll-positions';

describe('scrollTargetFor', () => {
  const saved = new Map([['k1', 840]]);

  it('returns a back or forward visit to where the reader was', () => {
    expect(scrollTargetFor('POP', 'k1', '', saved)).toEqual({ kind: 'position', top: 840 });
  });

  it('starts a new page at the top, and a POP never seen before too', () => {
    expect(scrollTargetFor('PUSH', 'k2', '', saved)).toEqual({ kind: 'position', top: 0 });
    expect(scrollTargetFor('POP', 'unknown', '', saved)).toEqual({ kind: 'position', top: 0 });
  });

  it("leaves the document's first page where the browser put it, unless a position was saved or a part is named", () => {
    expect(scrollTargetFor('POP', 'fresh', '', saved, true)).toEqual({ kind: 'none' });
    expect(scrollTargetFor('PUSH', 'fresh', '', saved, true)).toEqual({ kind: 'none' });
    // A reload of a page the reader had scrolled.
    expect(scrollTargetFor('POP', 'k1', '', saved, true)).toEqual({ kind: 'position', top: 840 });
    expect(scrollTargetFor('POP', 'fresh', '#faq-refunds', saved, true)).toEqual({ kind: 'element', id: 'faq-refunds' });
  });

  it('scrolls to the part of the page a link names', () => {
    expect(scrollTargetFor('PUSH', 'k2', '#what-is-a-persona', saved)).toEqual({ kind: 'element', id: 'what-is-a-persona' });
    expect(scrollTargetFor('PUSH', 'k2', '#', saved)).toEqual({ kind: 'position', top: 0 });
  });

  it('leaves the scroll alone when only the address is replaced (filters, search)', () => {
    expect(scrollTargetFor('REPLACE', 'k3', '', saved)).toEqual({ kind: 'none' });
  });
});

describe('ScrollPositions', () => {
  it('survives a round trip through session storage', () => {
    const positions = new ScrollPositions();
    positions.set('a', 120.4);
    positions.set('b', -5);
    expect([...ScrollPositions.parse(positions.serialize()).map]).toEqual([
      ['a', 120],
      ['b', 0],
    ]);
  });

  it('ignores stored values it did not write', () => {
    expect(ScrollPositions.parse('{"a":1}').map.size).toBe(0);
    expect(ScrollPositions.parse('not json').map.size).toBe(0);
    expect([...ScrollPositions.parse('[["a",10],["b","x"],[3,4],["c",null]]').map]).toEqual([['a', 10]]);
    expect(ScrollPositions.parse(null).map.size).toBe(0);
  });

  it('keeps only the newest entries', () => {
    const positions = new ScrollPositions();
    for (let i = 0; i < MAX_ENTRIES + 10; i++) positions.set(`k${i}`, i);
    expect(positions.map.size).toBe(MAX_ENTRIES);
    expect(positions.map.has('k0')).toBe(false);
    positions.set('k10', 5); // seen again: now the newest
    positions.set('new', 1);
    expect(positions.map.has('k10')).toBe(true);
    expect(positions.map.has('k11')).toBe(false);
  });
});
