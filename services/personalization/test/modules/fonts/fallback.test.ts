import { fontFor } from '../../../src/modules/fonts/fallback';

describe('font fallback', () => {
  it('draws Latin, Greek and Cyrillic with DejaVu and Devanagari with Noto Sans Devanagari', () => {
    expect(fontFor('Ü'.codePointAt(0) as number)).toBe('serif');
    expect(fontFor('Ω'.codePointAt(0) as number)).toBe('serif');
    expect(fontFor('Ж'.codePointAt(0) as number)).toBe('serif');
    expect(fontFor('अ'.codePointAt(0) as number)).toBe('devanagari');
    expect(fontFor('अ'.codePointAt(0) as number, 'serifBold')).toBe('devanagariBold');
  });
});
