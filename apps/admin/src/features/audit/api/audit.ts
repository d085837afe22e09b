import type { AuditEntry, ListOf } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';
import { placeQuery, type ListPlace } from '../../../lib/list-place';

export const AUDIT_PAGE_SIZE = 50;

export function listAudit(place: ListPlace, type: string, signal?: AbortSignal): Promise<ListOf<AuditEntry>> {
  return api.get<ListOf<AuditEntry>>('/admin/audit', { ...placeQuery(place, AUDIT_PAGE_SIZE), type: type || undefined }, signal);
}
