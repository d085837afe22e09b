// Reads the book multipart form (spec §7 plus printingCost) into checked
// fields and files. Everything is read and judged before anything is written:
// a bad field or file means a 4xx and no side effect.
import type { MultipartFile, MultipartValue, Multipart } from '@fastify/multipart';
import {
  BOOK_FILE_FIELDS,
  BOOK_JSON_FIELDS,
  BOOK_LIMITS,
  BOOK_NUMBER_FIELDS,
  BookFields,
  BookFieldsUpdate,
  printableTextProblem,
  type BookFileField,
  type BookFieldsUpdate as BookFieldsUpdateType,
} from '@persona/contracts';
import { badRequest, compileValidator, type HttpError, multipartFailure, multipartParts, payloadTooLarge, unsupportedMediaType } from '@persona/service-kit';
import { discardUploads, spoolUpload, type SpooledUpload, type UntrustedPool } from '@persona/untrusted';
import { HIDDEN_MARKUP } from '../files/inspect-upload';
import { sniffFileType, type SniffedType } from '../files/sniff-file-type';
import type { UploadTasks } from '../files/upload-tasks';

export interface Upload {
  /** The file as it arrived, on disk until it is stored or the request is answered (spool-upload.ts). */
  file: SpooledUpload;
  type: SniffedType;
  /** A full PDF's pages, once inspected (null when pdf-lib cannot read it). */
  pages?: number | null;
}

export interface BookForm {
  fields: BookFieldsUpdateType;
  files: { coverImage?: Upload; images: Upload[]; fullPdf?: Upload; samplePdf?: Upload; authorSignature?: Upload };
}

const LABELS: Record<BookFileField, string> = {
  coverImage: 'Cover image',
  images: 'Each image',
  fullPdf: 'Full PDF',
  samplePdf: 'Sample PDF',
  authorSignature: "The author's signature",
};

const IMAGE_KINDS = 'a JPEG, PNG, GIF or WebP image';

const validateCreate = compileValidator(BookFields);
const validateUpdate = compileValidator(BookFieldsUpdate);

function isFileField(name: string): name is BookFileField {
  return (BOOK_FILE_FIELDS as readonly string[]).includes(name);
}

/** The most bytes a file of this field may have. */
function sizeLimit(field: BookFileField): number {
  return field === 'authorSignature' ? BOOK_LIMITS.signatureMaxBytes : BOOK_LIMITS.fileMaxBytes;
}

function tooLarge(field: BookFileField): HttpError {
  return payloadTooLarge(`${LABELS[field]} must be under ${sizeLimit(field) / (1024 * 1024)}MB`);
}

/** Writes a file part to the spool folder as it arrives and judges it by its first and last bytes; a refused one is removed. */
async function readFile(part: MultipartFile, spoolDir: string): Promise<Upload> {
  const field = part.fieldname as BookFileField;
  let file: SpooledUpload;
  try {
    file = await spoolUpload(part.file, spoolDir);
  } catch (err) {
    throw multipartFailure(err);
  }
  try {
    if (part.file.truncated || file.size > sizeLimit(field)) throw tooLarge(field);
    if (file.size === 0) throw badRequest(`${LABELS[field] === 'Each image' ? 'An image' : LABELS[field]} is empty`);
    // Its start and its end are what a type is told by (a PDF's trailer is in its last kilobyte).
    const type = sniffFileType(file.size <= file.head.length ? file.head : Buffer.concat([file.head, file.tail]));
    const wantsPdf = field === 'fullPdf' || field === 'samplePdf';
    if (wantsPdf && type?.kind !== 'pdf') throw unsupportedMediaType(`${LABELS[field]} must be a PDF file`);
    // Drawn over the dedication page: only a PNG keeps the paper showing through around the ink.
    if (field === 'authorSignature' && type?.ext !== 'png')
      throw unsupportedMediaType("The author's signature must be a PNG image (with a transparent background)");
    if (!wantsPdf && type?.kind !== 'image') {
      throw unsupportedMediaType(field === 'images' ? `Each image must be ${IMAGE_KINDS}` : `Cover image must be ${IMAGE_KINDS}`);
    }
    return { file, type: type! };
  } catch (err) {
    await discardUploads([file]);
    throw err;
  }
}

/** Every file of a form (to discard them once the request is answered). */
export function formUploads(form: Pick<BookForm, 'files'>): Upload[] {
  const { coverImage, images, samplePdf, fullPdf, authorSignature } = form.files;
  return [coverImage, ...images, samplePdf, fullPdf, authorSignature].filter((upload): upload is Upload => upload !== undefined);
}

/** How a refusal names each upload ("The cover image would have more than …"). */
const NAMED: Record<BookFileField, string> = {
  coverImage: 'The cover image',
  images: 'An image',
  fullPdf: 'The full PDF',
  samplePdf: 'The sample PDF',
  authorSignature: "The author's signature",
};

/**
 * Every file of the form judged past its first bytes on an untrusted-file thread, within its
 * budget (pictures by their pixels and structure, PDFs by what they unpack to, their objects and
 * pages): a 415 for what is not the image it claims, a 413 or 422 naming the limit a file passes.
 * The full PDF's pages are kept on its upload.
 */
export async function inspectUploads(form: BookForm, pool: UntrustedPool<UploadTasks>, signal?: AbortSignal): Promise<void> {
  const uploads: Array<[BookFileField, Upload]> = [
    ...(form.files.coverImage ? [['coverImage', form.files.coverImage] as [BookFileField, Upload]] : []),
    ...form.files.images.map((upload): [BookFileField, Upload] => ['images', upload]),
    ...(form.files.samplePdf ? [['samplePdf', form.files.samplePdf] as [BookFileField, Upload]] : []),
    ...(form.files.fullPdf ? [['fullPdf', form.files.fullPdf] as [BookFileField, Upload]] : []),
    ...(form.files.authorSignature ? [['authorSignature', form.files.authorSignature] as [BookFileField, Upload]] : []),
  ];
  await Promise.all(
    uploads.map(async ([field, upload]) => {
      const file = NAMED[field];
      if (upload.type.kind === 'pdf') {
        upload.pages = (await pool.run('inspectPdf', { path: upload.file.path, file }, { file, signal })).pages;
        return;
      }
      const { problem } = await pool.run('inspectImage', { path: upload.file.path, type: upload.type, file }, { file, signal });
      const kinds = field === 'authorSignature' ? 'a PNG image' : IMAGE_KINDS;
      if (problem) throw unsupportedMediaType(`${file} ${problem}; upload ${problem === HIDDEN_MARKUP ? 'a plain image' : kinds}`);
    }),
  );
}

/** JSON.parse refusing the keys that poison prototypes (`__proto__`, `constructor`) and NUL characters, as the JSON bodies do; undefined when not JSON. */
function parseJson(name: string, text: string): unknown {
  let poisoned = false;
  let nul = false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (key, value: unknown) => {
      if (key === '__proto__' || key === 'constructor') poisoned = true;
      if (key.includes('\0') || (typeof value === 'string' && value.includes('\0'))) nul = true;
      return value;
    });
  } catch {
    return undefined;
  }
  if (poisoned) throw badRequest(`body field "${name}" contains a forbidden property (__proto__ or constructor)`, 'FORBIDDEN_PROPERTY');
  if (nul) throw badRequest(`body field "${name}" contains a NUL character, which is not allowed`);
  return parsed;
}

function convertField(name: string, raw: string): unknown {
  if ((BOOK_NUMBER_FIELDS as readonly string[]).includes(name)) {
    const trimmed = raw.trim();
    const n = Number(trimmed);
    if (trimmed === '' || !Number.isFinite(n)) throw badRequest(`body field "${name}" must be a number`);
    return n;
  }
  if (name === 'sampleContent') {
    const trimmed = raw.trim();
    if (!trimmed.startsWith('[')) return raw;
    const parsed = parseJson(name, trimmed);
    if (parsed === undefined) throw badRequest('body field "sampleContent" looks like a list but is not valid JSON');
    return parsed;
  }
  if ((BOOK_JSON_FIELDS as readonly string[]).includes(name)) {
    const parsed = parseJson(name, raw);
    if (!Array.isArray(parsed)) throw badRequest(`body field "${name}" must be a JSON list`);
    // Blank tags and paragraphs are dropped, not refused (the form trims what is typed).
    return parsed.map((v) => (typeof v === 'string' ? v.trim() : v)).filter((v) => v !== '');
  }
  return raw;
}

/**
 * What of a book every Persona prints (the title page, the dedication's author, the typeset text)
 * must be printable by the engine's fonts: a book no Persona could be made of is never put on sale.
 */
export function personaTextProblem(fields: Pick<BookFieldsUpdateType, 'title' | 'author' | 'content'>): string | null {
  const problem =
    (fields.title !== undefined && printableTextProblem(fields.title, 'The title')) ||
    (fields.author !== undefined && printableTextProblem(fields.author, 'The author'));
  if (problem) return problem;
  for (const [index, paragraph] of (fields.content ?? []).entries()) {
    const found = printableTextProblem(paragraph, `Paragraph ${index + 1} of the content`);
    if (found) return found;
  }
  return null;
}

/** Trims tags, drops empty ones and case-insensitive duplicates. */
export function normaliseTags(tags: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const tag of tags.map((t) => t.trim()).filter(Boolean)) {
    const key = tag.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      out.push(tag);
    }
  }
  return out;
}

/**
 * Reads the whole form, its files written to `spoolDir` as they arrive. On a refusal nothing is
 * left behind; on success the caller discards the files once the request is answered (`formUploads`).
 */
export async function parseBookForm(parts: AsyncIterableIterator<Multipart>, mode: 'create' | 'update', spoolDir: string): Promise<BookForm> {
  const files: BookForm['files'] = { images: [] };
  try {
    return await readForm(parts, mode, spoolDir, files);
  } catch (err) {
    await discardUploads(formUploads({ files }).map((upload) => upload.file));
    throw err;
  }
}

async function readForm(parts: AsyncIterableIterator<Multipart>, mode: 'create' | 'update', spoolDir: string, files: BookForm['files']): Promise<BookForm> {
  const fields: Record<string, unknown> = {};
  const seen = new Set<string>();

  for await (const part of multipartParts(parts)) {
    if (part.type === 'file') {
      const name = part.fieldname;
      if (!isFileField(name)) {
        part.file.resume();
        throw badRequest(`body field "${name}" is not allowed`);
      }
      if (name !== 'images' && files[name]) throw badRequest(`body field "${name}" was sent twice`);
      // An empty file input arrives as a part with no name and no bytes: "empty values are omitted".
      if (!part.filename) {
        part.file.resume();
        continue;
      }
      // Counted before it is read: nothing is spooled that the form cannot keep.
      if (name === 'images' && files.images.length >= BOOK_LIMITS.imagesMax) throw badRequest(`At most ${BOOK_LIMITS.imagesMax} images are allowed`);
      const upload = await readFile(part, spoolDir);
      if (name === 'images') files.images.push(upload);
      else files[name] = upload;
      continue;
    }
    const value = part as MultipartValue<unknown>;
    if (value.valueTruncated) throw payloadTooLarge(`body field "${value.fieldname}" is too large`);
    if (seen.has(value.fieldname)) throw badRequest(`body field "${value.fieldname}" was sent twice`);
    seen.add(value.fieldname);
    const raw = typeof value.value === 'string' ? value.value : String(value.value ?? '');
    if (raw === '') continue; // spec §7: empty values are omitted
    if (value.fieldname === '__proto__' || value.fieldname === 'constructor' || value.fieldname === 'prototype') {
      throw badRequest(`body field "${value.fieldname}" is not allowed`);
    }
    // PostgreSQL cannot store a NUL character (and no title needs one).
    if (raw.includes('\0')) throw badRequest(`body field "${value.fieldname}" contains a NUL character, which is not allowed`);
    fields[value.fieldname] = convertField(value.fieldname, raw);
  }

  const problem = mode === 'create' ? validateCreate(fields) : validateUpdate(fields);
  if (problem) throw badRequest(problem);
  const checked = fields as BookFieldsUpdateType;
  const printProblem = personaTextProblem(checked);
  if (printProblem) throw badRequest(printProblem);
  if (checked.tags) checked.tags = normaliseTags(checked.tags);
  return { fields: checked, files };
}
