import { formatLongDate } from './format-date';

describe('formatLongDate', () => {
  it('writes a date as people do, and leaves anything else as given', () => {
    expect(formatLongDate('2025-03-07')).toBe('7 March 2025');
    expect(formatLongDate('2024-12-31T18:30:00.000Z')).toBe('31 December 2024');
    expect(formatLongDate('someday')).toBe('someday');
    expect(formatLongDate('2025-13-01')).toBe('2025-13-01');
    expect(formatLongDate('2025-01-00')).toBe('2025-01-00');
  });
});
