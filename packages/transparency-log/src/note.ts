// C2SP signed notes (https://c2sp.org/signed-note) with Ed25519 keys: a text, a blank line, and
// signature lines "— <key name> <base64(key ID ‖ signature)>". A key ID is the first 4 bytes of
// SHA-256(key name ‖ "\n" ‖ 0x01 ‖ public key); a verifier key is written
// "<name>+<key ID, 8 hex digits>+<base64(0x01 ‖ public key)>". The text signed is the note's text,
// its last newline included.
import { fromBase64, toBase64 } from './base64';
import { concatBytes } from './bytes';
import { fromHex, sameBytes, type Sha256, toHex } from './hashing';

/** The signature type byte of Ed25519 keys in notes. */
export const ED25519 = 0x01;
const EM_DASH_LINE = '\u2014 ';
/** The most signature lines a note may carry (the limit of Go's `sumdb/note`). */
export const MAX_SIGNATURES = 100;
const encoder = new TextEncoder();

/** Whether Ed25519 `signature` by `publicKey` is over `message`. */
export type Ed25519Verify = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => Promise<boolean>;

export interface NoteSigner {
  name: string;
  keyId: Uint8Array;
  sign(message: Uint8Array): Promise<Uint8Array>;
}

export interface NoteVerifier {
  name: string;
  keyId: Uint8Array;
  publicKey: Uint8Array;
}

/** A key name: no "+", no whitespace, not empty. */
export function checkKeyName(name: string): void {
  if (name === '' || /[+\s\u00a0\u2000-\u200b\u2028\u2029\u3000]/.test(name))
    throw new Error(`a key name has no "+" and no spaces, and is not empty: ${JSON.stringify(name)}`);
}

/** The 4-byte ID of Ed25519 key `publicKey` named `name`. */
export async function keyIdOf(sha256: Sha256, name: string, publicKey: Uint8Array): Promise<Uint8Array> {
  checkKeyName(name);
  const digest = await sha256(concatBytes([encoder.encode(`${name}\n`), Uint8Array.of(ED25519), publicKey]));
  return digest.subarray(0, 4);
}

/** The verifier key's text: "<name>+<key ID>+<base64(0x01 ‖ public key)>". */
export function formatVerifierKey(verifier: NoteVerifier): string {
  return `${verifier.name}+${toHex(verifier.keyId)}+${toBase64(concatBytes([Uint8Array.of(ED25519), verifier.publicKey]))}`;
}

/** Reads a verifier key's text, checking its key ID against its name and key. */
export async function parseVerifierKey(sha256: Sha256, text: string): Promise<NoteVerifier> {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(text);
  if (!m) throw new Error('a verifier key is "<name>+<8 hex digits>+<base64 key>"');
  const key = fromBase64(m[3]!);
  if (key.length !== 33 || key[0] !== ED25519) throw new Error('the verifier key is not an Ed25519 key');
  const publicKey = key.subarray(1);
  const keyId = await keyIdOf(sha256, m[1]!, publicKey);
  if (!sameBytes(keyId, fromHex(m[2]!))) throw new Error('the verifier key’s ID does not match its name and key');
  return { name: m[1]!, keyId, publicKey };
}

/** The text with a signature line from each signer. */
export async function signNote(text: string, signers: readonly NoteSigner[]): Promise<string> {
  checkText(text);
  const message = encoder.encode(text);
  let note = `${text}\n`;
  for (const signer of signers) {
    const signature = await signer.sign(message);
    note += `${EM_DASH_LINE}${signer.name} ${toBase64(concatBytes([signer.keyId, signature]))}\n`;
  }
  return note;
}

function checkText(text: string): void {
  if (!text.endsWith('\n')) throw new Error('a note’s text ends with a newline');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0009\u000b-\u001f\u007f]/.test(text)) throw new Error('a note’s text has no control characters but newlines');
}

export class NoteError extends Error {
  override readonly name = 'NoteError';
}

/**
 * Opens a signed note: answers its text once a signature by one of `verifiers` checks, and which of
 * them signed. A note no known key signed, or with a known key's signature that does not check, is
 * refused (a NoteError); signatures by other keys are ignored, as the format asks.
 */
export async function openNote(note: string, verifiers: readonly NoteVerifier[], verify: Ed25519Verify): Promise<{ text: string; signedBy: NoteVerifier[] }> {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new NoteError('this is not a signed note: no blank line before its signatures');
  const text = note.slice(0, split + 1);
  try {
    checkText(text);
  } catch (err) {
    throw new NoteError((err as Error).message);
  }
  const lines = note.slice(split + 2, -1).split('\n');
  // As Go's reference reader: a note is read once, not once per signature an attacker piles on it.
  if (lines.length > MAX_SIGNATURES) throw new NoteError(`a note carries at most ${MAX_SIGNATURES} signatures, this one ${lines.length}`);
  const message = encoder.encode(text);
  const signedBy: NoteVerifier[] = [];
  for (const line of lines) {
    const m = /^\u2014 ([^ ]+) ([A-Za-z0-9+/=]+)$/.exec(line);
    if (!m) throw new NoteError(`a signature line is "— <name> <base64>", not ${JSON.stringify(line.slice(0, 80))}`);
    let blob: Uint8Array;
    try {
      blob = fromBase64(m[2]!);
    } catch {
      throw new NoteError(`the signature of ${m[1]} is not base64`);
    }
    if (blob.length < 5) throw new NoteError(`the signature of ${m[1]} is too short`);
    const keyId = blob.subarray(0, 4);
    const verifier = verifiers.find((v) => v.name === m[1] && sameBytes(v.keyId, keyId));
    if (!verifier) continue;
    if (!(await verify(verifier.publicKey, message, blob.subarray(4)))) throw new NoteError(`the signature of ${verifier.name} does not match the note`);
    if (!signedBy.includes(verifier)) signedBy.push(verifier);
  }
  if (signedBy.length === 0) throw new NoteError('no key this reader knows signed the note');
  return { text, signedBy };
}

/** Web Crypto's Ed25519 verification (browsers with Ed25519 in Web Crypto, and Node). */
export const webEd25519Verify: Ed25519Verify = async (publicKey, message, signature) => {
  const key = await globalThis.crypto.subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
  return globalThis.crypto.subtle.verify({ name: 'Ed25519' }, key, signature, message);
};
