// The work done on a copy someone sent (a file to verify, a leaked copy) on the untrusted-file
// threads (@persona/untrusted's pool, with its heap and time limits): this module is what
// each thread loads. The leak reader (pdf.js, a canvas) is loaded on its first use, so a thread
// replaced after refusing a bomb starts in milliseconds.
import { readFileSync } from 'node:fs';
import type * as ReadMarkModule from '../leak-mark/read-mark';
import { inspectCopy } from './inspect-copy';

// Each task is given the copy's spooled file (spool-upload.ts) and reads it here, on its own thread.
export const tasks = {
  inspectCopy: (file: string) => inspectCopy(readFileSync(file)),
  readMark: (file: string) => {
    // A require on first use (a relative dynamic import would need the compiled file's extension).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { readMark } = require('../leak-mark/read-mark') as typeof ReadMarkModule;
    return readMark(readFileSync(file));
  },
};

export type CopyTasks = typeof tasks;
