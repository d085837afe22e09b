// The author's Ed25519 signature over a Persona's canonical record (DESIGN §5).
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { PersonaSignedRecord } from '@persona/contracts';

export interface SigningKey {
  keyId: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicKeyPem: string;
}

/**
 * JSON with object keys sorted recursively (by UTF-16 code units, as RFC 8785
 * does) and no whitespace. Strings are emitted as JSON.stringify does, so any
 * Unicode text round-trips and lone surrogates are escaped.
 */
export function canonicalJson(value: unknown): string {
  const out = serialise(value);
  if (out === undefined) throw new TypeError('canonicalJson: value is not representable as JSON');
  return out;
}

function serialise(value: unknown): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'bigint') throw new TypeError('canonicalJson: bigint is not JSON');
    return JSON.stringify(value) as string | undefined;
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => serialise(item) ?? 'null').join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const member = serialise(record[key]);
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
  }
  return `{${members.join(',')}}`;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function keyIdOf(publicKey: KeyObject): string {
  return sha256Hex(publicKey.export({ type: 'spki', format: 'der' })).slice(0, 16);
}

function fromPrivateKey(privateKey: KeyObject): SigningKey {
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new TypeError(`signing key must be Ed25519, got ${privateKey.asymmetricKeyType ?? 'a symmetric key'}`);
  }
  const publicKey = createPublicKey(privateKey);
  return {
    keyId: keyIdOf(publicKey),
    privateKey,
    publicKey,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export function generateSigningKey(): SigningKey {
  return fromPrivateKey(generateKeyPairSync('ed25519').privateKey);
}

/** Throws when the PEM is not an Ed25519 private key: a bad configuration must stop the service. */
export function signingKeyFromPem(privatePem: string): SigningKey {
  return fromPrivateKey(createPrivateKey({ key: privatePem, format: 'pem' }));
}

export function signingKeyToPem(key: SigningKey): string {
  return key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/**
 * Only the signed fields are serialised, so a caller may pass a wider object (a stored row)
 * without changing what is signed: the six of every Persona, and a gift's recipient and message
 * when it has them (absent, the JSON is exactly that of a Persona made before gifts existed).
 */
export function signedFields(record: PersonaSignedRecord): PersonaSignedRecord {
  const { personaId, bookId, title, author, buyerName, purchaseDate, recipientName, message } = record;
  return {
    personaId,
    bookId,
    title,
    author,
    buyerName,
    purchaseDate,
    ...(recipientName ? { recipientName } : {}),
    ...(message ? { message } : {}),
  };
}

function signedBytes(record: PersonaSignedRecord): Buffer {
  return Buffer.from(canonicalJson(signedFields(record)), 'utf8');
}

export function signPersona(record: PersonaSignedRecord, key: SigningKey): string {
  return sign(null, signedBytes(record), key.privateKey).toString('base64');
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const ED25519_SIGNATURE_BYTES = 64;

/** False, never an exception, for a wrong, malformed or foreign signature or key. */
export function verifyPersonaSignature(record: PersonaSignedRecord, signature: string, publicKey: KeyObject | string): boolean {
  try {
    if (typeof signature !== 'string' || !BASE64.test(signature)) return false;
    const sig = Buffer.from(signature, 'base64');
    if (sig.length !== ED25519_SIGNATURE_BYTES) return false;
    const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
    if (key.asymmetricKeyType !== 'ed25519') return false;
    return verify(null, signedBytes(record), key, sig);
  } catch {
    return false;
  }
}
