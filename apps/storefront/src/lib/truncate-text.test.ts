import { META_DESCRIPTION_MAX, truncateText } from './truncate-text';

describe('truncateText', () => {
  it('leaves text of at most 150 characters as it is', () => {
    const text = 'a'.repeat(150);
    expect(truncateText(text, META_DESCRIPTION_MAX)).toBe(text);
  });

  it('cuts longer text to exactly 150 characters ending in an ellipsis', () => {
    const cut = truncateText('b'.repeat(151), META_DESCRIPTION_MAX);
    expect(cut).toHaveLength(150);
    expect(cut).toBe(`${'b'.repeat(149)}…`);
  });

  it('collapses whitespace and newlines first', () => {
    expect(truncateText('  one\n\n two   three ', 150)).toBe('one two three');
  });

  it('does not leave a space before the ellipsis', () => {
    const cut = truncateText(`${'c'.repeat(148)} word`, 150);
    expect(cut).toBe(`${'c'.repeat(148)}…`);
  });
});
