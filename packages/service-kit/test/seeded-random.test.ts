import { seededRandom } from '../src/seeded-random';

describe('seeded random numbers', () => {
  it('repeat for a seed and differ between seeds', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const draw = (r: typeof a) => Array.from({ length: 5 }, () => r.next());
    const first = draw(a);
    expect(draw(b)).toEqual(first);
    expect(draw(c)).not.toEqual(first);
  });

  it('stay in range and sample distinct items', () => {
    const r = seededRandom(1);
    for (let i = 0; i < 1000; i += 1) {
      const n = r.int(3, 5);
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(5);
    }
    const picked = r.sample(['a', 'b', 'c', 'd'], 3);
    expect(new Set(picked).size).toBe(3);
    expect(r.sample(['a'], 3)).toEqual(['a']);
  });
});
