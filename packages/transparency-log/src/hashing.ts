// RFC 6962 §2.1 (RFC 9162 §2.1.1) Merkle tree hashing over SHA-256: a leaf's hash is
// SHA-256(0x00 || entry), an inner node's SHA-256(0x01 || left || right), the empty tree's SHA-256("").
// The SHA-256 is given: synchronous on the server (node:crypto, see ./node), Web Crypto's in the
// browser. A synchronous SHA-256's hashes stay synchronous (the writer and the audit hash millions
// and pay no promise each); `await` takes either, so one code path serves both.

/** SHA-256 of `data`, at once or later. */
export type Sha256 = (data: Uint8Array) => Uint8Array | Promise<Uint8Array>;

/** The size of every hash in the log, in bytes. */
export const HASH_SIZE = 32;

/** A hash now (a synchronous SHA-256) or later (Web Crypto's). */
export type HashResult = Uint8Array | Promise<Uint8Array>;

export interface TreeHasher {
  /** The hash of a leaf whose entry is `entry`. */
  leaf(entry: Uint8Array): HashResult;
  /** The hash of an inner node over its two children. */
  node(left: Uint8Array, right: Uint8Array): HashResult;
  /** The root of the empty tree. */
  emptyRoot(): HashResult;
}

export function rfc6962(sha256: Sha256): TreeHasher {
  return {
    leaf(entry) {
      const input = new Uint8Array(1 + entry.length);
      input[0] = 0x00;
      input.set(entry, 1);
      return sha256(input);
    },
    node(left, right) {
      if (left.length !== HASH_SIZE || right.length !== HASH_SIZE) throw new Error(`a node's children are ${HASH_SIZE}-byte hashes`);
      const input = new Uint8Array(1 + 2 * HASH_SIZE);
      input[0] = 0x01;
      input.set(left, 1);
      input.set(right, 1 + HASH_SIZE);
      return sha256(input);
    },
    emptyRoot() {
      return sha256(new Uint8Array(0));
    },
  };
}

/** The root of the perfect tree over `hashes` (a power of two of them: a full tile's, a subtree's). */
export async function perfectRoot(hasher: TreeHasher, hashes: readonly Uint8Array[]): Promise<Uint8Array> {
  let level = hashes;
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const hash = hasher.node(level[i]!, level[i + 1]!);
      next.push(hash instanceof Uint8Array ? hash : await hash);
    }
    level = next;
  }
  return level[0]!;
}

/** Web Crypto's SHA-256 (browsers, and Node's global `crypto`). */
export const webSha256: Sha256 = async (data) => new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', data));

/** Whether two hashes (or any byte strings) are the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

export function fromHex(hex: string): Uint8Array {
  if (!/^([0-9a-f]{2})*$/i.test(hex)) throw new Error('not hexadecimal bytes');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}
