// /api/admin/audit: what happened in the shop, newest first.
import { AuditEntry, AuditQuery, ErrorBody, ListEnvelope } from '@persona/contracts';
import { DEFAULT_PAGE_SIZE } from '@persona/contracts';
import type { ServiceApp } from '@persona/service-kit';
import type { AdminDeps } from '../app';
import { listAudit } from '../modules/audit/audit';

export default async function auditRoutes(app: ServiceApp, deps: AdminDeps) {
  app.get('/api/admin/audit', { onRequest: deps.adminOnly, schema: { querystring: AuditQuery, response: { 200: ListEnvelope(AuditEntry), 400: ErrorBody, 401: ErrorBody } } }, async (request) => {
    const { entries, total } = await listAudit(deps.db, request.query);
    return { data: entries, meta: { total, page: request.query.page ?? 1, limit: request.query.limit ?? DEFAULT_PAGE_SIZE } };
  });
}
