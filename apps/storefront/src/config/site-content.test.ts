import { isValidAdSlot, READER_AD_SLOT } from './site-content';

describe("the reader's ad slot", () => {
  it('is configured with something the reader can show (by default the spec text)', () => {
    expect(isValidAdSlot(READER_AD_SLOT)).toBe(true);
  });

  it('takes an AdSense unit only with a publisher id and a slot id', () => {
    expect(isValidAdSlot({ kind: 'adsense', client: 'ca-pub-1234567890123456', slot: '1234567890' })).toBe(true);
    expect(isValidAdSlot({ kind: 'adsense', client: 'pub-1234567890123456', slot: '1234567890' })).toBe(false);
    expect(isValidAdSlot({ kind: 'adsense', client: 'ca-pub-1234567890123456', slot: '"><script>' })).toBe(false);
    expect(isValidAdSlot({ kind: 'text', text: '  ' })).toBe(false);
  });
});
