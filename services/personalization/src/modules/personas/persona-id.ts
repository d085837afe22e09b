// The Persona ID a path names, as the routes take it.
import { normalizePersonaId } from '@persona/contracts';
import { badRequest } from '@persona/service-kit';

/** The canonical ID of what was typed ("prs 1a2b…", any case, with or without dashes), or a 400. */
export function personaIdOf(raw: string): string {
  const id = normalizePersonaId(raw);
  if (!id) throw badRequest('That is not a valid Persona ID');
  return id;
}
