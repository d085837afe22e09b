// Page content drawn with pdf-lib is compressed with our deflate (deflate/deflate.ts)
// rather than pako: pdf-lib's content streams are made unencoded, then
// replaced by compressed raw streams once the drawing is done.
import { PDFContentStream, PDFName, PDFRawStream, type PDFContext, type PDFRef } from 'pdf-lib';
import { deflate } from '../deflate/deflate';

export function deferContentCompression(context: PDFContext): void {
  context.contentStream = (operators, dict = {}) => PDFContentStream.of(context.obj(dict), operators, false);
}

/** Every content stream of the context, compressed (call after the last drawing). */
export function compressContentStreams(context: PDFContext): void {
  for (const [ref, object] of context.enumerateIndirectObjects() as Array<[PDFRef, unknown]>) {
    if (!(object instanceof PDFContentStream)) continue;
    const dict = object.dict;
    dict.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
    context.assign(ref, PDFRawStream.of(dict, deflate(object.getUnencodedContents())));
  }
}
