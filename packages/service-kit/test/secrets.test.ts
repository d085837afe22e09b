// The one constant-time comparison of secrets, and the internal routes' guard built on it.
import Fastify from 'fastify';
import { internalOnly, INTERNAL_TOKEN_HEADER, sameSecret } from '../src/secrets';
import { HttpError } from '../src/http-errors';

describe('secrets', () => {
  it('compares strings and bytes, any length, without throwing', () => {
    expect(sameSecret('s3cret', 's3cret')).toBe(true);
    expect(sameSecret(Buffer.from('s3cret'), 's3cret')).toBe(true);
    expect(sameSecret('s3cret', 's3creT')).toBe(false);
    expect(sameSecret('s3cret', 's3cret-and-more')).toBe(false);
    expect(sameSecret('', 's3cret')).toBe(false);
  });

  it("lets through only a request carrying the shop's internal token", async () => {
    const token = 't'.repeat(40);
    const app = Fastify();
    app.setErrorHandler((err: Error, _request, reply) => reply.status(err instanceof HttpError ? err.statusCode : 500).send({ message: err.message }));
    app.get('/internal/x', { onRequest: internalOnly(token) }, async () => ({ ok: true }));
    expect((await app.inject({ url: '/internal/x', headers: { [INTERNAL_TOKEN_HEADER]: token } })).statusCode).toBe(200);
    for (const headers of [{}, { [INTERNAL_TOKEN_HEADER]: 'wrong' }, { [INTERNAL_TOKEN_HEADER]: `${token}x` }]) {
      const res = await app.inject({ url: '/internal/x', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe("This route is for the shop's own services");
    }
    await app.close();
  });
});
