// The demo catalogue must exercise every storefront feature (issue 2 §4).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BOOK_LIMITS, isWholePaise, SampleContent } from '@persona/contracts';
import { compileValidator } from '@persona/service-kit';
import { DEMO_SEED_DIR, loadDemoCatalogue, type DemoCatalogue } from '../../../src/modules/seed/seed-demo-catalogue';

const words = (paragraphs: string[]) => paragraphs.join(' ').split(/\s+/).filter(Boolean).length;

describe('the demo catalogue', () => {
  let demo: DemoCatalogue;
  beforeAll(async () => {
    demo = await loadDemoCatalogue();
  });

  it('has at least 12 books in 4 categories, each category used', () => {
    expect(demo.books.length).toBeGreaterThanOrEqual(12);
    expect(demo.categories).toHaveLength(4);
    for (const c of demo.categories) expect(demo.books.some((b) => b.category === c.key)).toBe(true);
  });

  it('has tags for every home tab and several explore chips', () => {
    const has = (rule: (tags: string[]) => boolean) => demo.books.filter((b) => rule(b.tags)).length;
    expect(has((t) => t.includes('Fiction'))).toBeGreaterThanOrEqual(2);
    expect(has((t) => t.some((x) => /Memoir|Biography|Historical/.test(x)))).toBeGreaterThanOrEqual(2);
    expect(has((t) => t.includes('Self-Help'))).toBeGreaterThanOrEqual(2);
    expect(new Set(demo.books.flatMap((b) => b.tags.map((t) => t.toLowerCase()))).size).toBeGreaterThanOrEqual(8);
  });

  it('has samples in both forms, with ad pages in the list form', () => {
    const validSample = compileValidator(SampleContent);
    for (const b of demo.books) expect(validSample(b.sampleContent)).toBeNull();
    expect(demo.books.some((b) => typeof b.sampleContent === 'string')).toBe(true);
    expect(demo.books.some((b) => Array.isArray(b.sampleContent) && b.sampleContent.some((p) => p.isAd))).toBe(true);
  });

  it('has at least two books long enough for a 30-page A5 book', () => {
    expect(demo.books.filter((b) => words(b.content) >= 9000).length).toBeGreaterThanOrEqual(2);
    for (const b of demo.books) expect(b.content.filter((p) => p.startsWith('# ')).length).toBeGreaterThanOrEqual(3);
  });

  it('has sane prices, ratings and a cover file for every book', () => {
    for (const b of demo.books) {
      expect(isWholePaise(b.price) && b.price > 0 && b.price <= BOOK_LIMITS.priceMax).toBe(true);
      expect(isWholePaise(b.printingCost) && b.printingCost >= 0).toBe(true);
      expect(b.ratings).toBeGreaterThanOrEqual(0);
      expect(b.ratings).toBeLessThanOrEqual(5);
      expect(existsSync(path.join(DEMO_SEED_DIR, 'covers', b.cover))).toBe(true);
      expect(b.description.length).toBeGreaterThanOrEqual(150);
    }
  });
});
