import type { AuditEntry, ListOf } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';

export const AUDIT_PAGE_SIZE = 50;

export function listAudit(page: number, type: string, signal?: AbortSignal): Promise<ListOf<AuditEntry>> {
  return api.get<ListOf<AuditEntry>>('/admin/audit', { page, limit: AUDIT_PAGE_SIZE, type: type || undefined }, signal);
}
