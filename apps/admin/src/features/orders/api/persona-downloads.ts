// A Persona's downloads on the order page (issue 24): the counts, read from the personalisation
// service that counts them, and the owner's fresh allowance (reset) or stop (revoke), each audited.
import type { DownloadChangeBody, Envelope, PersonaDownloads } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';

const path = (personaId: string, rest = '') => `/personas/${encodeURIComponent(personaId)}/downloads${rest}`;

export async function getPersonaDownloads(personaId: string, signal?: AbortSignal): Promise<PersonaDownloads> {
  return (await api.get<Envelope<PersonaDownloads>>(path(personaId), undefined, signal)).data;
}

export async function changePersonaDownloads(
  personaId: string,
  change: 'reset' | 'revoke',
  body: DownloadChangeBody,
): Promise<{ data: PersonaDownloads; message: string }> {
  const answer = await api.post<Envelope<PersonaDownloads> & { message: string }>(path(personaId, `/${change}`), body);
  return { data: answer.data, message: answer.message };
}
