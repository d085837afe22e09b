// Logins and public posts are limited per client, the client being the one the
// gateway forwards: keyed by the gateway's own address, one visitor trying ten
// passwords a minute would lock every administrator out of logging in.
import type { AdminService } from '../src/service';
import { startAdminHarness } from './support';

describe('the admin service rate limits, per client', () => {
  let service: AdminService;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const h = await startAdminHarness('pglite', { loginsPerMinute: 2, postsPerMinute: 2 });
    service = h.service;
    close = () => h.close();
  }, 60_000);
  afterAll(() => close());

  const from = (client: string) => ({ 'x-forwarded-for': client });

  it('keeps a guesser from locking the administrator out of logging in', async () => {
    const guess = () =>
      service.app.inject({
        method: 'POST',
        url: '/api/admin/login',
        headers: from('203.0.113.7'),
        payload: { email: 'nobody@example.com', password: 'guess' },
      });
    expect([(await guess()).statusCode, (await guess()).statusCode, (await guess()).statusCode]).toEqual([401, 401, 429]);
    const owner = await service.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: from('198.51.100.20'),
      payload: { email: 'owner@persona-books.in', password: 'correct horse battery' },
    });
    expect(owner.statusCode).toBe(200);
  });

  it('limits newsletter posts per client too', async () => {
    const post = (client: string, n: number) =>
      service.app.inject({ method: 'POST', url: '/api/newsletter/subscribe', headers: from(client), payload: { email: `reader${n}@example.com` } });
    expect([(await post('203.0.113.8', 1)).statusCode, (await post('203.0.113.8', 2)).statusCode, (await post('203.0.113.8', 3)).statusCode]).toEqual([
      200, 200, 429,
    ]);
    expect((await post('198.51.100.21', 4)).statusCode).toBe(200);
  });
});
