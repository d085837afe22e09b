import type { Envelope, FileVerification, PersonaVerification, PublicKey } from '@persona/contracts';
import { api, apiRequest } from '@persona/web-kit/api-client';

/** GET /api/personas/:personaId/verify: does the stored record's signature hold? */
export async function getPersonaVerification(personaId: string, signal?: AbortSignal): Promise<PersonaVerification> {
  const answer = await api.get<Envelope<PersonaVerification>>(`/personas/${encodeURIComponent(personaId)}/verify`, undefined, signal);
  return answer.data;
}

/** POST /api/personas/verify with the PDF or EPUB as multipart field `file`. */
export async function verifyPersonaFile(file: File, signal?: AbortSignal): Promise<FileVerification> {
  const form = new FormData();
  form.append('file', file, file.name || 'persona');
  const answer = await apiRequest<Envelope<FileVerification>>('/personas/verify', { method: 'POST', body: form, signal });
  return answer.data;
}

/** GET /api/personas/public-key: the shop's Persona key, and its public log's origin and key. */
export async function getPublicKey(signal?: AbortSignal): Promise<PublicKey> {
  const answer = await api.get<Envelope<PublicKey>>('/personas/public-key', undefined, signal);
  return answer.data;
}
