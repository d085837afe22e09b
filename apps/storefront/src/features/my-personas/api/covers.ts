// The covers of a library's books (issue 24): the library answers each Persona's book by id, and
// its cover is the catalogue's, read once per book (the gateway caches these answers per catalogue
// version). A book since deleted has none: the cover's designed fallback shows its title.
import { type Book, type Envelope } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';

export async function readCovers(bookIds: readonly string[], signal?: AbortSignal): Promise<Map<string, string | null>> {
  const unique = [...new Set(bookIds)];
  const answers = await Promise.allSettled(unique.map((id) => api.get<Envelope<Book>>(`/books/${encodeURIComponent(id)}`, undefined, signal)));
  return new Map(
    unique.map((id, i) => [
      id,
      answers[i]!.status === 'fulfilled' ? ((answers[i] as PromiseFulfilledResult<Envelope<Book>>).value.data.coverImage?.url ?? null) : null,
    ]),
  );
}
