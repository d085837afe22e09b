// The author's Ed25519 signature over a Persona's canonical record (DESIGN §5).
import { createHash, createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { PersonaDetails, PersonaSalts, PersonaSignedRecord, PersonaSignedRecordV2 } from '@persona/contracts';

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
 * without changing what is signed. A record of issue 24's version 2: its public fields and the
 * hashes it has. An older one: the six of every Persona, and a gift's recipient and message when
 * it has them (absent, the JSON is exactly that of a Persona made before gifts existed).
 */
export function signedFields(record: PersonaSignedRecord): PersonaSignedRecord {
  if ('v' in record && record.v === 2) {
    const { v, personaId, bookId, title, author, name, purchaseDate, buyerNameHash, messageHash } = record;
    return {
      v,
      personaId,
      bookId,
      title,
      author,
      name,
      purchaseDate,
      ...(buyerNameHash ? { buyerNameHash } : {}),
      ...(messageHash ? { messageHash } : {}),
    };
  }
  const { personaId, bookId, title, author, buyerName, purchaseDate, recipientName, message } = record as PersonaDetails;
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

// The salts' secret, derived from the signing key once per key (as the leak mark's is).
const saltSecrets = new WeakMap<KeyObject, Buffer>();

function saltSecret(privateKey: KeyObject): Buffer {
  let secret = saltSecrets.get(privateKey);
  if (!secret) {
    secret = createHash('sha256')
      .update('persona-salt\0')
      .update(privateKey.export({ format: 'der', type: 'pkcs8' }))
      .digest();
    saltSecrets.set(privateKey, secret);
  }
  return secret;
}

/**
 * The salt of one private detail of a Persona: 16 bytes as 32 hexadecimal digits, unguessable
 * without the shop's key, and the same each time the Persona is made — so a retry, or two
 * deliveries of its request at once, write the same file as the one recorded. `log`: the salt of the
 * copy's commitment in the public log (public-log/log-entries.ts), kept with its entry.
 */
export function detailSalt(privateKey: KeyObject, personaId: string, detail: keyof PersonaSalts | 'log'): string {
  return createHmac('sha256', saltSecret(privateKey)).update(`${detail}\0${personaId}`).digest('hex').slice(0, 32);
}

/**
 * The commitment to a private detail: SHA-256 of its salt (the hexadecimal text) followed by the
 * detail, as UTF-8, in hexadecimal. The colophon tells the holder this recipe, so they can check it
 * with any tool (`printf '%s' "<salt><text>" | sha256sum`).
 */
export function saltedHash(salt: string, value: string): string {
  return sha256Hex(Buffer.from(`${salt}${value}`, 'utf8'));
}

/** A salt for each private detail the Persona has: a gift's buyer, a message. */
export function personaSalts(details: PersonaDetails, privateKey: KeyObject): PersonaSalts {
  return {
    ...(details.recipientName ? { buyerName: detailSalt(privateKey, details.personaId, 'buyerName') } : {}),
    ...(details.message ? { message: detailSalt(privateKey, details.personaId, 'message') } : {}),
  };
}

/**
 * The record a Persona made since issue 24 is signed over: the name printed (the recipient's for a
 * gift, else the buyer's) and, by salted hash only, a gift's buyer and message. Throws when a
 * private detail has no salt: it would otherwise be signed as absent.
 */
export function signedRecordOf(details: PersonaDetails, salts: PersonaSalts): PersonaSignedRecordV2 {
  const gift = Boolean(details.recipientName);
  if (gift && !salts.buyerName) throw new TypeError("a gift's buyer name needs its salt");
  if (details.message && !salts.message) throw new TypeError("a gift's message needs its salt");
  return {
    v: 2,
    personaId: details.personaId,
    bookId: details.bookId,
    title: details.title,
    author: details.author,
    name: gift ? (details.recipientName as string) : details.buyerName,
    purchaseDate: details.purchaseDate,
    ...(gift ? { buyerNameHash: saltedHash(salts.buyerName as string, details.buyerName) } : {}),
    ...(details.message ? { messageHash: saltedHash(salts.message as string, details.message) } : {}),
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
