// Administrator sessions. A token is a signed JWT whose `jti` names a session
// row; logout revokes the row, and every verifier (this service, the gateway,
// the other services through /internal/sessions/:jti) refuses a token whose
// session is revoked or gone, from that moment on.
import { createSigner } from 'fast-jwt';

export const SESSION_TTL_MS = 12 * 3600_000;

export function tokenSigner(secret: string) {
  const sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: SESSION_TTL_MS });
  return (claims: { sub: string; email: string; jti: string }) => sign({ ...claims, role: 'admin' });
}
