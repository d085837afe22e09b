import { readFilters, toOrderFilters } from '../../../lib/order-filters';
import { dashboardLinks, daysBefore } from './dashboard-links';

const query = (link: string) => toOrderFilters(readFilters(new URLSearchParams(link.split('?')[1] ?? '')));

describe('dashboard links', () => {
  const links = dashboardLinks('2026-03-01');

  it('counts days back across months and leap years', () => {
    expect(daysBefore('2026-03-01', 1)).toBe('2026-02-28');
    expect(daysBefore('2028-03-01', 1)).toBe('2028-02-29');
    expect(daysBefore('2027-01-05', 29)).toBe('2026-12-07');
  });

  it('lead each sales figure to the paid orders of its days, today included', () => {
    expect(query(links.today)).toEqual({ paymentStatus: 'paid', from: '2026-03-01', to: '2026-03-01' });
    expect(query(links.last7Days)).toEqual({ paymentStatus: 'paid', from: '2026-02-23', to: '2026-03-01' });
    expect(query(links.last30Days)).toEqual({ paymentStatus: 'paid', from: '2026-01-31', to: '2026-03-01' });
    expect(query(links.day('2026-02-14'))).toEqual({ paymentStatus: 'paid', from: '2026-02-14', to: '2026-02-14' });
  });

  it('lead the waiting work to its filtered list', () => {
    expect(links.awaitingDispatch).toMatch(/^\/orders\?/);
    expect(query(links.awaitingDispatch)).toEqual({ paymentStatus: 'paid', deliveryType: 'physical', status: 'pending' });
    expect(query(links.failedPersonas)).toEqual({ paymentStatus: 'paid', personaStatus: 'failed' });
    expect(links.newMessages).toBe('/feedbacks?from=2026-02-23');
  });
});
