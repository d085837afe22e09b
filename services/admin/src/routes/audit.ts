// /api/admin/audit: what happened in the shop, newest first.
import { AuditEntry, AuditQuery, DEFAULT_PAGE_SIZE, ErrorBody, ListEnvelope } from '@persona/contracts';
import { decodeCursor, pageMeta } from '@persona/db';
import { readCursors, type ServiceApp } from '@persona/service-kit';
import type { AdminDeps } from '../deps';
import { toAuditEntry } from '../modules/audit/audit.mapper';
import { AUDIT_KEYS, listAudit } from '../modules/audit/audit.repository';

export default async function auditRoutes(app: ServiceApp, deps: AdminDeps) {
  app.get(
    '/api/admin/audit',
    { onRequest: deps.adminOnly, schema: { querystring: AuditQuery, response: { 200: ListEnvelope(AuditEntry), 400: ErrorBody, 401: ErrorBody } } },
    async (request) => {
      const { page = 1, limit = DEFAULT_PAGE_SIZE, type, subject } = request.query;
      const cursors = readCursors(request.query, (text) => decodeCursor(text, AUDIT_KEYS));
      const result = await deps.reads.readLatest((reader) => listAudit(reader, { type, subject, limit, page, ...cursors, countCap: deps.countCap }));
      return { data: result.rows.map(toAuditEntry), meta: pageMeta(result, { page, limit }) };
    },
  );
}
