// One Persona's files, as a PDF worker makes them: the PDF (pdf-engine), and for a book typeset
// from its text the EPUB (epub), both from the same signed record.
import type { KeyObject } from 'node:crypto';
import { buildPersonaEpub } from '../epub/build-persona-epub';
import { buildPersonaPdf, type PersonaPdf, type PersonaPdfInput } from '../pdf-engine/build-persona-pdf';
import { printCover } from '../print-files/print-cover';
import { printInterior } from '../print-files/print-interior';
import { spineInches, type PaperName } from '../print-files/print-specs';

export interface PersonaBuildInput extends PersonaPdfInput {
  /** Makes the EPUB too (a text book): the key that signs its manifest, and the book's language. */
  epub?: { privateKey: KeyObject; language: string };
  /** Makes the print files too (a printed copy, issue 27): the back cover's blurb, and the paper (the spine). */
  print?: { blurb: string; paper: PaperName };
}

/** A printed copy's files: the interior and the cover spread, with the interior's page count and the spine's width. */
export interface PrintFiles {
  interior: Uint8Array;
  cover: Uint8Array;
  pages: number;
  spineInches: number;
}

export interface PersonaBuild extends PersonaPdf {
  epub: Uint8Array | null;
  print: PrintFiles | null;
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
  return { ...pdf, epub, print: input.print ? await printFilesOf(input, pdf.bytes, input.print) : null };
}

async function printFilesOf(input: PersonaBuildInput, persona: Uint8Array, print: { blurb: string; paper: PaperName }): Promise<PrintFiles> {
  const { record } = input;
  const interior = await printInterior(persona, { hasCover: input.cover !== undefined, title: record.title });
  const cover = await printCover({
    title: record.title,
    author: record.author,
    blurb: print.blurb,
    name: record.recipientName ?? record.buyerName,
    copyNo: input.copyNo ?? 0,
    personaId: record.personaId,
    verifyUrl: input.verifyUrl,
    ...(input.cover ? { cover: input.cover } : {}),
    pages: interior.pages,
    paper: print.paper,
  });
  return { interior: interior.bytes, cover: cover.bytes, pages: interior.pages, spineInches: spineInches(interior.pages, print.paper) };
}
