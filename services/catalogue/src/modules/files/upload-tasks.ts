// The work done on an administrator's uploads on the untrusted-file threads (@persona/untrusted's
// pool, with its heap and time limits): this module is what each thread loads.
import { readFileSync } from 'node:fs';
import { inspectImage, inspectPdf } from './inspect-upload';
import type { SniffedType } from './sniff-file-type';

// Each task is given where the upload was spooled (spool-upload.ts) and reads it here, on its own
// thread; `file` names it in a refusal.
export const tasks = {
  inspectImage: ({ path, type, file }: { path: string; type: SniffedType; file: string }) => inspectImage(readFileSync(path), type, file),
  inspectPdf: ({ path, file }: { path: string; file: string }) => inspectPdf(readFileSync(path), file),
};

export type UploadTasks = typeof tasks;
