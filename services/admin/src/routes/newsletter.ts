// /api/newsletter/subscribe (public, idempotent) and the subscribers list.
import { DataEnvelope, ErrorBody, SubscribeBody, Subscriber } from '@persona/contracts';
import type { ServiceApp } from '@persona/service-kit';
import { Type } from '@sinclair/typebox';
import type { AdminDeps } from '../app';

export default async function newsletterRoutes(app: ServiceApp, deps: AdminDeps) {
  const { db, adminOnly } = deps;

  app.post(
    '/api/newsletter/subscribe',
    { config: { rateLimit: deps.publicRateLimit }, schema: { body: SubscribeBody, response: { 200: Type.Object({ message: Type.String() }), 400: ErrorBody, 429: ErrorBody } } },
    async (request) => {
      const email = request.body.email.trim().toLowerCase();
      const inserted = await db.insertInto('subscribers').values({ email }).onConflict((oc) => oc.column('email').doNothing()).executeTakeFirst();
      return { message: Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 ? 'Thank you for subscribing!' : 'You are already subscribed.' };
    },
  );

  app.get('/api/admin/subscribers', { onRequest: adminOnly, schema: { response: { 200: DataEnvelope(Type.Array(Subscriber)), 401: ErrorBody } } }, async () => {
    const rows = await db.selectFrom('subscribers').selectAll().orderBy('subscribed_at', 'desc').execute();
    return { data: rows.map((r) => ({ email: r.email, subscribedAt: r.subscribed_at.toISOString() })) };
  });
}
