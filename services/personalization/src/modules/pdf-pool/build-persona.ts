// One Persona's files, as a PDF worker makes them: the PDF (pdf-engine), and for a book typeset
// from its text the EPUB (epub), both from the same signed record.
import type { KeyObject } from 'node:crypto';
import { buildPersonaEpub } from '../epub/build-persona-epub';
import { buildPersonaPdf, type PersonaPdf, type PersonaPdfInput } from '../pdf-engine/build-persona-pdf';

export interface PersonaBuildInput extends PersonaPdfInput {
  /** Makes the EPUB too (a text book): the key that signs its manifest, and the book's language. */
  epub?: { privateKey: KeyObject; language: string };
}

export interface PersonaBuild extends PersonaPdf {
  epub: Uint8Array | null;
}

export async function buildPersona(input: PersonaBuildInput): Promise<PersonaBuild> {
  const pdf = await buildPersonaPdf(input);
  const epub =
    input.epub && input.source.kind === 'text'
      ? await buildPersonaEpub({
          record: input.record,
          salts: input.salts,
          signature: input.signature,
          keyId: input.keyId,
          privateKey: input.epub.privateKey,
          verifyUrl: input.verifyUrl,
          paragraphs: input.source.paragraphs,
          language: input.epub.language,
          mark: input.mark,
          cover: input.cover,
          authorSignature: input.authorSignature,
          copyNo: input.copyNo,
        })
      : null;
  return { ...pdf, epub };
}
