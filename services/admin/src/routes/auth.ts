// /api/admin/login, /api/admin/logout, /api/admin/me, and the internal
// session check the gateway and the other services ask on every admin call.
import { Type } from '@sinclair/typebox';
import { AdminProfile, DataEnvelope, ErrorBody, LoginBody, LoginData, NoBody, NoQuery, SessionStatus } from '@persona/contracts';
import { clientAddress, internalOnly, notFound, unauthorized, type ServiceApp } from '@persona/service-kit';
import type { AdminDeps } from '../deps';
import { login } from '../modules/auth/login';
import { findAdminProfile } from '../modules/auth/admins.repository';
import { isSessionActive, revokeSession } from '../modules/auth/sessions.repository';

export default async function authRoutes(app: ServiceApp, deps: AdminDeps) {
  const { db, adminOnly } = deps;

  app.post(
    '/api/admin/login',
    {
      config: { rateLimit: { ...deps.loginRateLimit, keyGenerator: clientAddress } },
      schema: { querystring: NoQuery, body: LoginBody, response: { 200: DataEnvelope(LoginData), 400: ErrorBody, 401: ErrorBody, 429: ErrorBody } },
    },
    async (request) => ({
      data: await login({ db, uow: deps.uow, sign: deps.sign, correlationId: request.correlationId }, request.body),
      message: 'Login successful',
    }),
  );

  app.post(
    '/api/admin/logout',
    {
      onRequest: adminOnly,
      schema: { querystring: NoQuery, body: NoBody, response: { 200: Type.Object({ message: Type.String() }), 400: ErrorBody, 401: ErrorBody } },
    },
    async (request) => {
      await revokeSession(db, request.admin!.jti);
      // Every replica of every service refuses the token from its next request, not when its cached answer expires.
      await deps.sessions?.remember(request.admin!.jti, true);
      return { message: 'Logged out' };
    },
  );

  app.get(
    '/api/admin/me',
    { onRequest: adminOnly, schema: { querystring: NoQuery, response: { 200: DataEnvelope(AdminProfile), 400: ErrorBody, 401: ErrorBody } } },
    async (request) => {
      const admin = await findAdminProfile(db, request.admin!.sub);
      if (!admin) throw unauthorized('This administrator no longer exists');
      return { data: admin };
    },
  );

  app.get(
    '/internal/sessions/:jti',
    {
      onRequest: internalOnly(deps.internalToken),
      schema: {
        params: Type.Object({ jti: Type.String({ maxLength: 64 }) }),
        querystring: NoQuery,
        response: { 200: DataEnvelope(SessionStatus), 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      if (!(await isSessionActive(db, request.params.jti))) throw notFound('No active session');
      return { data: { active: true as const } };
    },
  );
}
