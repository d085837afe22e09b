import { readFilters, toOrderFilters, writeFilters } from './order-filters';

describe('order dashboard filters', () => {
  it('default to paid orders and leave the URL empty', () => {
    const filters = readFilters(new URLSearchParams(''));
    expect(filters).toEqual({ status: '', deliveryType: '', payment: 'paid', persona: '', from: '', to: '', search: '' });
    expect(writeFilters(filters).toString()).toBe('');
    expect(toOrderFilters(filters)).toEqual({ paymentStatus: 'paid' });
  });

  it('round-trip every filter through the URL into the API query', () => {
    const params = new URLSearchParams(
      'status=shipped&deliveryType=physical&payment=all&persona=failed&from=2026-11-01&to=2026-11-30&search=%20asha%20&page=3',
    );
    const filters = readFilters(params);
    // The place (page, cursor) is list-place's: a filter written anew starts at the first page.
    expect(writeFilters(filters).toString()).toBe('status=shipped&deliveryType=physical&payment=all&persona=failed&from=2026-11-01&to=2026-11-30&search=asha');
    expect(toOrderFilters(filters)).toEqual({
      status: 'shipped',
      deliveryType: 'physical',
      personaStatus: 'failed',
      from: '2026-11-01',
      to: '2026-11-30',
      search: 'asha',
    });
  });

  it('ignore values the API would refuse', () => {
    const filters = readFilters(new URLSearchParams('status=lost&deliveryType=drone&payment=free&persona=lost&from=yesterday&page=-2'));
    expect(toOrderFilters(filters)).toEqual({ paymentStatus: 'paid' });
  });
});
