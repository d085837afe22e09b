// The server's side: SHA-256 at once (node:crypto, for writing and auditing millions of hashes) and
// Ed25519 signing keys in the signed-note formats ("PRIVATE+KEY+<name>+<key ID>+<base64(0x01 ‖ seed)>").
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { fromBase64, toBase64 } from './base64';
import { concatBytes } from './bytes';
import { fromHex, sameBytes, type Sha256, toHex } from './hashing';
import { checkKeyName, ED25519, keyIdOf, type NoteSigner, type NoteVerifier } from './note';

export const nodeSha256: Sha256 = (data) => createHash('sha256').update(data).digest();

/** PKCS #8's wrapping of a 32-byte Ed25519 seed (RFC 8410). */
const PKCS8_ED25519 = fromHex('302e020100300506032b657004220420');

function keyOfSeed(seed: Uint8Array): { privateKey: KeyObject; publicKey: Uint8Array } {
  if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes');
  const privateKey = createPrivateKey({ key: Buffer.from(concatBytes([PKCS8_ED25519, seed])), format: 'der', type: 'pkcs8' });
  // The SubjectPublicKeyInfo of an Ed25519 key is 12 bytes of header and the 32-byte key.
  const publicKey = new Uint8Array(createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(12));
  return { privateKey, publicKey };
}

export interface SigningKey {
  signer: NoteSigner;
  verifier: NoteVerifier;
}

/** A signing key from its text ("PRIVATE+KEY+<name>+<key ID>+<base64>"), its key ID checked. */
export function parseSignerKey(text: string): SigningKey {
  const m = /^PRIVATE\+KEY\+([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(text);
  if (!m) throw new Error('a signing key is "PRIVATE+KEY+<name>+<8 hex digits>+<base64 seed>"');
  const key = fromBase64(m[3]!);
  if (key.length !== 33 || key[0] !== ED25519) throw new Error('the signing key is not an Ed25519 key');
  const name = m[1]!;
  checkKeyName(name);
  const { privateKey, publicKey } = keyOfSeed(key.subarray(1));
  const keyId = createHash('sha256').update(`${name}\n`).update(Uint8Array.of(ED25519)).update(publicKey).digest().subarray(0, 4);
  if (!sameBytes(keyId, fromHex(m[2]!))) throw new Error('the signing key’s ID does not match its name and key');
  return {
    signer: { name, keyId, sign: async (message) => new Uint8Array(sign(null, message, privateKey)) },
    verifier: { name, keyId, publicKey },
  };
}

/** A new signing key's text for `name` (keep it secret; its verifier key is public). */
export async function generateSignerKey(name: string): Promise<string> {
  checkKeyName(name);
  const { privateKey } = generateKeyPairSync('ed25519');
  const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(PKCS8_ED25519.length);
  const { publicKey } = keyOfSeed(seed);
  const keyId = await keyIdOf(nodeSha256, name, publicKey);
  return `PRIVATE+KEY+${name}+${toHex(keyId)}+${toBase64(concatBytes([Uint8Array.of(ED25519), seed]))}`;
}
