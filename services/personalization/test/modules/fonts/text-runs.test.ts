import { splitRuns } from '../../../src/modules/fonts/text-runs';

describe('text runs', () => {
  it('splits mixed text into runs, keeping spaces and marks with the run before them', () => {
    expect(splitRuns('Zoë और अनन्या · PRS', 'sans')).toEqual([
      { face: 'sans', text: 'Zoë ' },
      { face: 'devanagari', text: 'और अनन्या ' },
      { face: 'sans', text: '· PRS' },
    ]);
  });
});
