// A copy a client uploads (to be verified, or a leaked one), received for its check: the one file
// of a multipart body, written to the spool folder as it arrives.
import { badRequest, multipartFailure, multipartParts, payloadTooLarge } from '@persona/service-kit';
import { discardUploads, spoolUpload, type SpooledUpload } from '@persona/untrusted';
import type { FastifyRequest } from 'fastify';
import type { CopyFormat } from '../leak-mark/copy-format';

/** How a copy is named in what a refusal says. */
export const COPY_NAME: Record<CopyFormat, string> = { pdf: 'This PDF', epub: 'This EPUB' };

/**
 * The one file of a multipart body (field "file"), spooled to `uploadsDir` (never gathered in
 * memory: spool-upload.ts); a file over `limit` is a 413 with `tooLarge`.
 */
export async function receiveCopy(request: FastifyRequest, uploadsDir: string, limit: number, tooLarge: string): Promise<SpooledUpload> {
  let upload: SpooledUpload | undefined;
  try {
    for await (const part of multipartParts(request.parts({ limits: { fileSize: limit, files: 1, fields: 0, parts: 1, headerPairs: 20 } }))) {
      if (part.type !== 'file' || part.fieldname !== 'file') throw badRequest(`body field "${part.fieldname}" is not allowed`);
      try {
        upload = await spoolUpload(part.file, uploadsDir);
      } catch (err) {
        throw multipartFailure(err);
      }
      if (part.file.truncated) throw payloadTooLarge(tooLarge);
    }
  } catch (err) {
    await discardUploads([upload]);
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw payloadTooLarge(tooLarge);
    throw err;
  }
  if (!upload || upload.size === 0) {
    await discardUploads([upload]);
    throw badRequest('body field "file" is required');
  }
  return upload;
}
