import { pageCount, readFilters, toOrderQuery, writeFilters } from './order-filters';

describe('order dashboard filters', () => {
  it('default to paid orders on page 1 and leave the URL empty', () => {
    const filters = readFilters(new URLSearchParams(''));
    expect(filters).toEqual({ status: '', deliveryType: '', payment: 'paid', from: '', to: '', search: '', page: 1 });
    expect(writeFilters(filters).toString()).toBe('');
    expect(toOrderQuery(filters)).toEqual({ page: 1, limit: 20, paymentStatus: 'paid' });
  });

  it('round-trip every filter through the URL into the API query', () => {
    const params = new URLSearchParams('status=shipped&deliveryType=physical&payment=all&from=2026-11-01&to=2026-11-30&search=%20asha%20&page=3');
    const filters = readFilters(params);
    expect(writeFilters(filters).toString()).toBe('status=shipped&deliveryType=physical&payment=all&from=2026-11-01&to=2026-11-30&search=asha&page=3');
    expect(toOrderQuery(filters)).toEqual({ page: 3, limit: 20, status: 'shipped', deliveryType: 'physical', from: '2026-11-01', to: '2026-11-30', search: 'asha' });
  });

  it('ignore values the API would refuse', () => {
    const filters = readFilters(new URLSearchParams('status=lost&deliveryType=drone&payment=free&from=yesterday&page=-2'));
    expect(toOrderQuery(filters)).toEqual({ page: 1, limit: 20, paymentStatus: 'paid' });
  });

  it('count pages, at least one', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(20)).toBe(1);
    expect(pageCount(21)).toBe(2);
  });
});
