import { isAdminRoute, matchesPagePattern } from '../src';

describe('storefront pages', () => {
  it.each([
    ['/', true],
    ['/books', true],
    ['/book/abc', true],
    ['/book/abc/', true],
    ['/book', false],
    ['/book/a/b', false],
    ['/about', false],
    ['/nowhere', false],
  ])('%s matches: %s', (path, expected) => {
    expect(matchesPagePattern(path)).toBe(expected);
  });
});

describe('admin route policy', () => {
  it.each([
    ['POST', '/api/books', true],
    ['PUT', '/api/books/1', true],
    ['DELETE', '/api/categories/1', true],
    ['GET', '/api/books', false],
    ['GET', '/api/books/1', false],
    ['GET', '/api/books/1/content', true],
    ['POST', '/api/orders/1/persona/retry', true],
    ['GET', '/api/orders', true],
    ['GET', '/api/orders/PRS-1', false],
    ['PATCH', '/api/orders/1/status', true],
    ['GET', '/api/orders/export', true],
    ['GET', '/api/orders/dispatch-list', true],
    ['GET', '/api/orders/summary', true],
    ['GET', '/api/orders/1/detail', true],
    ['GET', '/api/orders/PRS-1/invoice', false],
    ['POST', '/api/orders/1/notes', true],
    ['POST', '/api/orders/1/refunds', true],
    ['POST', '/api/orders/1/emails/2/resend', true],
    ['GET', '/api/coupons', true],
    ['POST', '/api/coupons', true],
    ['PUT', '/api/coupons/1', true],
    ['GET', '/api/coupons/1/redemptions', true],
    ['POST', '/api/coupons/price', false],
    ['PUT', '/api/coupons/price', true],
    ['GET', '/api/orders/reports/gst-return', true],
    ['GET', '/api/orders/reports/settlement', true],
    ['GET', '/api/orders/reports/settlement/export', true],
    ['POST', '/api/orders/1/persona/reissue', true],
    ['POST', '/api/orders/1/print/cancel', true],
    ['GET', '/api/feedback/all', true],
    ['POST', '/api/feedback', false],
    ['POST', '/api/admin/login', false],
    ['POST', '/api/admin/logout', true],
    ['GET', '/api/admin/audit', true],
    ['GET', '/api/admin/subscribers', true],
    ['GET', '/api/admin/subscribers/export', true],
    ['DELETE', '/api/feedback/1', true],
    ['PATCH', '/api/feedback/1', true],
    ['POST', '/api/feedback/1/answer', true],
    ['POST', '/api/personas/PRS-0000-0000-0000-0001/downloads/reset', true],
    ['POST', '/api/personas/PRS-0000-0000-0000-0001/downloads/revoke', true],
    ['POST', '/api/personas/PRS-0000-0000-0000-0001/downloads/renewal', false],
    ['POST', '/api/personas/PRS-0000-0000-0000-0001/downloads/renew', false],
  ])('%s %s needs admin: %s', (method, path, expected) => {
    expect(isAdminRoute(method, path)).toBe(expected);
  });
});
