// An administrator's upload judged past its first bytes, on an untrusted-file thread
// (upload-tasks.ts): a picture's structure, any markup hidden in it and its size in pixels; a
// PDF measured within the budget (every stream's unpacked bytes, its objects, pages and
// pictures) and its pages counted by pdf-lib. Over a budget: a FileRefusedError (413 or 422).
import { BudgetMeter, DOCUMENT_BUDGET, gaugePdf, IMAGE_BUDGET, type ImageKind, measureImage } from '@persona/untrusted';
import { hasActiveMarkup, imageProblem, type SniffedType } from './sniff-file-type';

/** The problem of a picture with markup behind its header. */
export const HIDDEN_MARKUP = 'contains HTML or script';

const KINDS: Record<string, ImageKind> = { jpg: 'jpeg', png: 'png', gif: 'gif', webp: 'webp' };

/**
 * Why the bytes are not a well-formed image of their type, or what they hide; null when they are
 * fine. A picture over the pixel budget is refused (413). `file` names the upload in a refusal ("The cover image").
 */
export function inspectImage(bytes: Uint8Array, type: SniffedType, file: string): { problem: string | null } {
  const problem = imageProblem(bytes, type);
  if (problem) return { problem };
  // Judged past the first bytes: a GIF header with a page behind it is not an image.
  if (hasActiveMarkup(bytes)) return { problem: HIDDEN_MARKUP };
  measureImage(bytes, KINDS[type.ext] ?? 'jpeg', new BudgetMeter(IMAGE_BUDGET, file));
  return { problem: null };
}

/**
 * Measures a PDF and counts its pages; `pages` is null when pdf-lib cannot read it (the upload is
 * still kept: making the Persona from it is what fails then, recorded on the order for the administrator).
 */
export async function inspectPdf(bytes: Uint8Array, file: string): Promise<{ pages: number | null }> {
  gaugePdf(bytes, new BudgetMeter(DOCUMENT_BUDGET, file));
  try {
    // Loaded only for a file that passed the gauge: a thread replaced after a bomb starts light.
    const { PDFDocument } = await import('pdf-lib');
    const pages = (await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false })).getPageCount();
    return { pages: pages > 0 ? pages : null };
  } catch {
    return { pages: null };
  }
}
