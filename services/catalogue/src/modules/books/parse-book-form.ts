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
  type BookFileField,
  type BookFieldsUpdate as BookFieldsUpdateType,
} from '@persona/contracts';
import { badRequest, compileValidator, type HttpError, payloadTooLarge, unsupportedMediaType } from '@persona/service-kit';
import { hasActiveMarkup, imageProblem, sniffFileType, type SniffedType } from '../files/sniff-file-type';

export interface Upload {
  bytes: Buffer;
  type: SniffedType;
}

export interface BookForm {
  fields: BookFieldsUpdateType;
  files: { coverImage?: Upload; images: Upload[]; fullPdf?: Upload; samplePdf?: Upload };
}

const LABELS: Record<BookFileField, string> = {
  coverImage: 'Cover image',
  images: 'Each image',
  fullPdf: 'Full PDF',
  samplePdf: 'Sample PDF',
};

const IMAGE_KINDS = 'a JPEG, PNG, GIF or WebP image';

const validateCreate = compileValidator(BookFields);
const validateUpdate = compileValidator(BookFieldsUpdate);

function isFileField(name: string): name is BookFileField {
  return (BOOK_FILE_FIELDS as readonly string[]).includes(name);
}

function tooLarge(field: BookFileField): HttpError {
  return payloadTooLarge(`${LABELS[field]} must be under 10MB`);
}

async function readFile(part: MultipartFile): Promise<Upload> {
  const field = part.fieldname as BookFileField;
  let bytes: Buffer;
  try {
    bytes = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(field);
    throw err;
  }
  if (bytes.length > BOOK_LIMITS.fileMaxBytes) throw tooLarge(field);
  if (bytes.length === 0) throw badRequest(`${LABELS[field] === 'Each image' ? 'An image' : LABELS[field]} is empty`);
  const type = sniffFileType(bytes);
  const wantsPdf = field === 'fullPdf' || field === 'samplePdf';
  if (wantsPdf && type?.kind !== 'pdf') throw unsupportedMediaType(`${LABELS[field]} must be a PDF file`);
  if (!wantsPdf && type?.kind !== 'image') {
    throw unsupportedMediaType(field === 'images' ? `Each image must be ${IMAGE_KINDS}` : `Cover image must be ${IMAGE_KINDS}`);
  }
  if (!wantsPdf) {
    // Judged past the first bytes: a GIF header with a page behind it is not an image.
    const label = field === 'images' ? 'An image' : 'The cover image';
    const problem = imageProblem(bytes, type!);
    if (problem) throw unsupportedMediaType(`${label} ${problem}; upload ${IMAGE_KINDS}`);
    if (hasActiveMarkup(bytes)) throw unsupportedMediaType(`${label} contains HTML or script; upload a plain image`);
  }
  return { bytes, type: type! };
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

export async function parseBookForm(parts: AsyncIterableIterator<Multipart>, mode: 'create' | 'update'): Promise<BookForm> {
  const fields: Record<string, unknown> = {};
  const files: BookForm['files'] = { images: [] };
  const seen = new Set<string>();

  for await (const part of parts) {
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
      const upload = await readFile(part);
      if (name === 'images') {
        if (files.images.length >= BOOK_LIMITS.imagesMax) throw badRequest(`At most ${BOOK_LIMITS.imagesMax} images are allowed`);
        files.images.push(upload);
      } else {
        files[name] = upload;
      }
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
  if (checked.tags) checked.tags = normaliseTags(checked.tags);
  return { fields: checked, files };
}
