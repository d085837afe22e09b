import { fontFor } from '../../../src/modules/fonts/fallback';
import { splitRuns } from '../../../src/modules/fonts/text-runs';

describe('font fallback', () => {
  it('draws Latin, Greek and Cyrillic with DejaVu and Devanagari with Noto Sans Devanagari', () => {
    expect(fontFor('Ü'.codePointAt(0) as number)).toBe('serif');
    expect(fontFor('Ω'.codePointAt(0) as number)).toBe('serif');
    expect(fontFor('Ж'.codePointAt(0) as number)).toBe('serif');
    expect(fontFor('अ'.codePointAt(0) as number)).toBe('devanagari');
    expect(fontFor('अ'.codePointAt(0) as number, 'serifBold')).toBe('devanagariBold');
  });

  it('splits mixed text into runs, keeping spaces and marks with the run before them', () => {
    expect(splitRuns('Zoë और अनन्या · PRS', 'sans')).toEqual([
      { face: 'sans', text: 'Zoë ' },
      { face: 'devanagari', text: 'और अनन्या ' },
      { face: 'sans', text: '· PRS' },
    ]);
  });
});
