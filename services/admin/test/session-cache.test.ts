// A logout seen at once by every replica that caches admin sessions in the real Redis (issue 25):
// another service's replica asks the admin service once and keeps "active"; the logout writes
// "revoked" over it, so that replica refuses the token from its next request without asking again.
import { cachedSessionCheck, redisSessionCache } from '@persona/service-kit';
import { describeWithRedis, TEST_REDIS_URL } from '@persona/test-kit';
import { INTERNAL_TOKEN, OWNER, startAdminHarness, type AdminHarness } from './support';

describeWithRedis()('admin sessions in Redis', () => {
  let h: AdminHarness;
  const cache = redisSessionCache(TEST_REDIS_URL);
  beforeAll(async () => {
    h = await startAdminHarness('pglite', { redisUrl: TEST_REDIS_URL });
  });
  afterAll(async () => {
    await cache.close();
    await h.close();
  });

  it("makes a logged-out token refused by another replica's cached check at once", async () => {
    const inject = h.service.app.inject.bind(h.service.app);
    const { token } = (await inject({ method: 'POST', url: '/api/admin/login', payload: { email: OWNER.email, password: OWNER.password } })).json().data;
    const jti = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).jti as string;
    let asked = 0;
    // Another service's replica: the admin service's internal check, through the shared cache.
    const replica = cachedSessionCheck(async (id) => {
      asked += 1;
      return (await inject({ url: `/internal/sessions/${id}`, headers: { 'x-internal-token': INTERNAL_TOKEN } })).statusCode === 404;
    }, cache);
    expect([await replica(jti), await replica(jti)]).toEqual([false, false]);
    expect(asked).toBe(1);
    expect((await inject({ method: 'POST', url: '/api/admin/logout', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    expect(await replica(jti)).toBe(true);
    expect(asked).toBe(1);
  });
});
