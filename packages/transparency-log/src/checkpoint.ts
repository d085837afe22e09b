// C2SP checkpoints (https://c2sp.org/tlog-checkpoint): the text a log signs for each size it
// publishes: its origin (a name unique to the log), the tree's size in decimal, its root hash in
// base64, and optional extension lines, each line ending in a newline.
import { fromBase64, toBase64 } from './base64';
import { HASH_SIZE } from './hashing';

export interface Checkpoint {
  origin: string;
  size: number;
  root: Uint8Array;
  extensions: string[];
}

export function formatCheckpoint({ origin, size, root, extensions }: Checkpoint): string {
  if (origin === '' || /[\n\r]/.test(origin)) throw new Error('a checkpoint’s origin is one non-empty line');
  if (!Number.isSafeInteger(size) || size < 0) throw new Error(`a checkpoint's size is a whole number ≥ 0, not ${size}`);
  if (root.length !== HASH_SIZE) throw new Error(`a checkpoint's root is a ${HASH_SIZE}-byte hash`);
  for (const line of extensions) if (line === '' || /[\n\r]/.test(line)) throw new Error('a checkpoint’s extension is one non-empty line');
  return [origin, String(size), toBase64(root), ...extensions].map((line) => `${line}\n`).join('');
}

/** Reads a checkpoint's text (a signed note's text, see note.ts), for the log of `origin` when given. */
export function parseCheckpoint(text: string, origin?: string): Checkpoint {
  if (!text.endsWith('\n')) throw new Error('a checkpoint ends with a newline');
  const [first, sizeLine, rootLine, ...extensions] = text.slice(0, -1).split('\n');
  if (!first || sizeLine === undefined || rootLine === undefined) throw new Error('a checkpoint has an origin, a size and a root hash, a line each');
  if (origin !== undefined && first !== origin) throw new Error(`this checkpoint is of the log "${first}", not "${origin}"`);
  if (!/^(0|[1-9][0-9]{0,15})$/.test(sizeLine) || !Number.isSafeInteger(Number(sizeLine)))
    throw new Error(`a checkpoint's size is a decimal number, not ${JSON.stringify(sizeLine)}`);
  let root: Uint8Array;
  try {
    root = fromBase64(rootLine);
  } catch {
    throw new Error('a checkpoint’s root hash is base64');
  }
  if (root.length !== HASH_SIZE) throw new Error(`a checkpoint's root is a ${HASH_SIZE}-byte hash`);
  if (extensions.some((line) => line === '')) throw new Error('a checkpoint has no empty lines');
  return { origin: first, size: Number(sizeLine), root, extensions };
}
