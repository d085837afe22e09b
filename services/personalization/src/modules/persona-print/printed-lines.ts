// Lines a Persona prints word for word in both its formats (the PDF and the EPUB).

/** What the shop says where an author has not signed by hand: never a drawn "signature" it did not make. */
export const SIGNED_FOR_THE_AUTHOR = 'Signed by Persona Books for the author';

/** The footer of every page (the PDF) or document (the EPUB): whose copy it is, and its Persona ID. */
export function footerText(name: string, personaId: string): string {
  return `Personal copy of ${name} · ${personaId}`;
}

/** The dedication page's line under the date (issue 27): the copy's number among its book's Personas. */
export function copyNumberLine(copyNo: number | string): string {
  return `Copy No. ${copyNo} of the Personas of this book`;
}

/** The colophon's sentence on the number, and what proves it. */
export function copyNumberProof(copyNo: number): string {
  return (
    `It is copy No. ${copyNo} of the Personas of this book. Persona Books records every copy it makes, in order, in a public ` +
    'log that can only grow: the verify link shows this copy’s entry there, and checks it in your browser.'
  );
}
