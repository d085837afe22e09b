// Images a Persona prints (issue 24): the book's cover, its first page, and the author's own
// signature on the dedication page. Decoding and compressing an image (pdf-lib's PNG embedder
// inflates and deflates every pixel) is done once per image and kept: each Persona of the book then
// writes the same finished image streams into its update, as the prepared book is kept (base-cache).
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import {
  concatTransformationMatrix,
  drawObject,
  JpegEmbedder,
  type PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PngEmbedder,
  popGraphicsState,
  pushGraphicsState,
  type PDFContext,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import { UnreadableSourceError } from './errors';

/** An image decoded and compressed as PDF streams: the image, and its alpha channel when it has one. */
export interface PreparedImage {
  width: number;
  height: number;
  image: PDFRawStream;
  mask: PDFRawStream | null;
  bytes: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];
const isPng = (bytes: Uint8Array) => PNG_SIGNATURE.every((b, i) => bytes[i] === b);
const isJpeg = (bytes: Uint8Array) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

/** The most prepared images kept, by their streams' bytes. */
const IMAGE_CACHE_BYTES = 32 * 1024 * 1024;
const prepared = new LRUCache<string, PreparedImage, Uint8Array>({
  maxSize: IMAGE_CACHE_BYTES,
  sizeCalculation: (image) => Math.max(1, image.bytes),
  fetchMethod: (_key, _stale, { context }) => prepare(context),
});

async function prepare(bytes: Uint8Array): Promise<PreparedImage> {
  let embedder: PngEmbedder | JpegEmbedder;
  try {
    if (isPng(bytes)) embedder = await PngEmbedder.for(bytes);
    else if (isJpeg(bytes)) embedder = await JpegEmbedder.for(bytes);
    else throw new Error('it is neither a PNG nor a JPEG');
  } catch (error) {
    throw new UnreadableSourceError(`the book's image cannot be read: ${(error as Error).message}`, { cause: error });
  }
  const scratch = await PDFDocument.create({ updateMetadata: false });
  const ref = scratch.context.nextRef();
  await embedder.embedIntoContext(scratch.context, ref);
  const image = scratch.context.lookup(ref) as PDFRawStream;
  const maskRef = image.dict.get(PDFName.of('SMask'));
  const mask = maskRef ? (scratch.context.lookup(maskRef) as PDFRawStream) : null;
  return { width: embedder.width, height: embedder.height, image, mask, bytes: image.contents.byteLength + (mask?.contents.byteLength ?? 0) };
}

/** A PNG or JPEG, prepared once per content (by SHA-256) and kept; a file that is neither is an UnreadableSourceError. */
export async function preparedImage(bytes: Uint8Array): Promise<PreparedImage> {
  const key = createHash('sha256').update(bytes).digest('hex');
  return (await prepared.fetch(key, { context: bytes })) ?? prepare(bytes);
}

export function clearPreparedImages() {
  prepared.clear();
}

/** Writes a prepared image into a document being made: its XObject's reference. */
export function registerImage(context: PDFContext, image: PreparedImage): PDFRef {
  const dict = image.image.dict.clone(context);
  if (image.mask) dict.set(PDFName.of('SMask'), context.register(PDFRawStream.of(image.mask.dict.clone(context), image.mask.contents)));
  return context.register(PDFRawStream.of(dict as PDFDict, image.image.contents));
}

/** Draws an image XObject into a page's rectangle (page points from its bottom-left). */
export function drawImage(page: PDFPage, ref: PDFRef, x: number, y: number, width: number, height: number) {
  const name = page.node.newXObject('Image', ref);
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(width, 0, 0, height, x, y), drawObject(name), popGraphicsState());
}

/** The largest size of an image of this aspect within a box, and where it sits centred in it. */
export function fitWithin(image: { width: number; height: number }, box: { x: number; y: number; width: number; height: number }) {
  const scale = Math.min(box.width / image.width, box.height / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  return { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height };
}
