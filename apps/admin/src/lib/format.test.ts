import { capitalize, formatDate, formatDateTime, formatInr } from './format';

describe('admin formats', () => {
  it('shows rupees with the rupee sign and two decimals', () => {
    expect(formatInr(349.5)).toBe('₹349.50');
  });

  it('shows dates in India time and a dash for nothing', () => {
    expect(formatDate('2026-11-21T20:00:00Z')).toBe('22 Nov 2026');
    expect(formatDateTime('2026-11-21T20:00:00Z')).toMatch(/22 Nov 2026.*01:30/);
    expect(formatDate(null)).toBe('—');
    expect(formatDate('not a date')).toBe('—');
  });

  it('capitalises a status word', () => {
    expect(capitalize('shipped')).toBe('Shipped');
    expect(capitalize('')).toBe('');
  });
});
