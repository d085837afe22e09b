import type { Envelope, FileVerification, PersonaVerification } from '@persona/contracts';
import { api, ApiError, buildUrl } from '../../../lib/api-client';

/** GET /api/personas/:personaId/verify: does the stored record's signature hold? */
export async function getPersonaVerification(personaId: string, signal?: AbortSignal): Promise<PersonaVerification> {
  const answer = await api.get<Envelope<PersonaVerification>>(`/personas/${encodeURIComponent(personaId)}/verify`, undefined, signal);
  return answer.data;
}

/**
 * POST /api/personas/verify with the PDF as multipart field `file`. The shared client speaks
 * JSON only, so this multipart call is made here with the same error conventions.
 */
export async function verifyPersonaFile(file: File, signal?: AbortSignal): Promise<FileVerification> {
  const form = new FormData();
  form.append('file', file, file.name || 'persona.pdf');
  const response = await fetch(buildUrl('/personas/verify'), { method: 'POST', body: form, headers: { Accept: 'application/json' }, signal });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const message = typeof parsed === 'object' && parsed !== null ? (parsed as { message?: unknown }).message : undefined;
    throw new ApiError(response.status, typeof message === 'string' && message ? message : response.statusText || `Request failed (${response.status})`);
  }
  return (parsed as Envelope<FileVerification>).data;
}
