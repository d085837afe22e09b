import { ApiError } from '@persona/web-kit/api-client';
import { serverMessage } from './server-message';

describe('the server message of a failed call', () => {
  it("is the server's own words, whatever the status", () => {
    expect(serverMessage(new ApiError(400, 'body field "email" must be a valid email'))).toBe('body field "email" must be a valid email');
    expect(serverMessage(new ApiError(429, 'Too many requests; please try again in 42 seconds'))).toBe('Too many requests; please try again in 42 seconds');
    expect(serverMessage(new ApiError(503, 'The admin service is unavailable, please try again shortly'))).toBe(
      'The admin service is unavailable, please try again shortly',
    );
  });

  it('is nothing when the answer only carried its status line', () => {
    expect(serverMessage(new ApiError(502, 'Bad Gateway'))).toBeNull();
    expect(serverMessage(new ApiError(500, 'Request failed (500)'))).toBeNull();
    expect(serverMessage(new ApiError(400, '  '))).toBeNull();
  });

  it('is nothing when the call never reached the server', () => {
    expect(serverMessage(new TypeError('Failed to fetch'))).toBeNull();
    expect(serverMessage(new DOMException('The operation was aborted.', 'AbortError'))).toBeNull();
    expect(serverMessage(undefined)).toBeNull();
  });
});
