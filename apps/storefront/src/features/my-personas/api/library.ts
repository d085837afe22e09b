// The library's calls (DESIGN §12): ask for a sign-in link; open the library with a link's token or its session.
import { LIBRARY_TOKEN_HEADER, type Envelope, type Library } from '@persona/contracts';
import { api, apiRequest } from '@persona/web-kit/api-client';

/** POST /api/library/link: the same answer whether the address has Personas or not. */
export async function requestLibraryLink(email: string): Promise<void> {
  await api.post('/library/link', { email });
}

/** GET /api/library with the token in its header (never in an address a log keeps). */
export async function openLibrary(token: string, signal?: AbortSignal): Promise<Library> {
  return (await apiRequest<Envelope<Library>>('/library', { signal, headers: { [LIBRARY_TOKEN_HEADER]: token } })).data;
}
