// Lines a Persona prints word for word in both its formats (the PDF and the EPUB).

/** What the shop says where an author has not signed by hand: never a drawn "signature" it did not make. */
export const SIGNED_FOR_THE_AUTHOR = 'Signed by Persona Books for the author';

/** The footer of every page (the PDF) or document (the EPUB): whose copy it is, and its Persona ID. */
export function footerText(name: string, personaId: string): string {
  return `Personal copy of ${name} · ${personaId}`;
}
