import { capitalize, formatDate, formatDateTime, formatInr, paiseFromTyped } from './format';

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

  it('reads rupees typed into a form as whole paise, and nothing else', () => {
    expect(paiseFromTyped('120')).toBe(12000);
    expect(paiseFromTyped('120.5')).toBe(12050);
    expect(paiseFromTyped(' ₹1,200.05 ')).toBe(120005);
    expect(paiseFromTyped('0.10')).toBe(10);
    for (const bad of ['', '12.345', '-5', '1e3', 'abc', '12..5']) expect(paiseFromTyped(bad)).toBeNull();
  });
});
