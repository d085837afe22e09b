import { ApiError } from '@persona/web-kit/api-client';
import { ApiDataCache, failureResult, FRESH_MS } from './api-data';

describe('the API answer cache', () => {
  it('starts from the answers the page was rendered with, and lets them age out', () => {
    const cache = new ApiDataCache({ '/books?limit=8': { ok: true, data: { data: [] } } }, 1000);
    expect(cache.fresh('/books?limit=8', 1000 + FRESH_MS - 1)).toEqual({ ok: true, data: { data: [] } });
    expect(cache.fresh('/books?limit=8', 1000 + FRESH_MS)).toBeUndefined();
    expect(cache.fresh('/books?limit=24', 1000)).toBeUndefined();
  });

  it('keeps a failure with its status and message, a network failure as status 0', () => {
    expect(failureResult(new ApiError(404, 'Book not found'))).toEqual({ ok: false, status: 404, message: 'Book not found' });
    expect(failureResult(new TypeError('Failed to fetch'))).toEqual({ ok: false, status: 0, message: 'Failed to fetch' });
  });
});
