import { generateKeyPairSync, verify } from 'node:crypto';
import type { PersonaDetails, PersonaSignedRecord } from '@persona/contracts';
import {
  canonicalJson,
  generateSigningKey,
  personaSalts,
  saltedHash,
  sha256Hex,
  signedRecordOf,
  signPersona,
  signingKeyFromPem,
  signingKeyToPem,
  verifyPersonaSignature,
} from '../../../src/modules/signing/persona-signature';

const record: PersonaSignedRecord = {
  personaId: 'PRS-7K3M-9QXD-2HFA-J8TW',
  bookId: '0b9f6c1e-4a57-4d2a-9c55-3c2f1f7e8a10',
  title: 'The Long Afternoon',
  author: 'Mira Kapoor',
  buyerName: 'Zoë Ünal',
  purchaseDate: '2026-11-22',
};

describe('canonicalJson', () => {
  it('sorts keys recursively and drops whitespace, whatever the insertion order', () => {
    const a = canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } });
    const b = canonicalJson({ a: { c: 'x', d: [3, { y: null, z: true }] }, b: 1 });
    expect(a).toBe('{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}');
    expect(b).toBe(a);
  });

  it('keeps Unicode text as UTF-8 characters and round-trips through JSON.parse', () => {
    const value = { buyerName: 'अनन्या', title: 'Zoë Ünal — «Ω» 😀' };
    const json = canonicalJson(value);
    expect(json).toBe('{"buyerName":"अनन्या","title":"Zoë Ünal — «Ω» 😀"}');
    expect(JSON.parse(json)).toEqual(value);
    expect(Buffer.from(json, 'utf8').toString('utf8')).toBe(json);
  });

  it('orders keys by code unit and omits undefined members like JSON does', () => {
    expect(canonicalJson({ é: 1, z: 2, A: 3, a: undefined })).toBe('{"A":3,"z":2,"é":1}');
  });
});

describe('Persona signatures', () => {
  const key = generateSigningKey();

  it('verifies a signature made over the record', () => {
    const signature = signPersona(record, key);
    expect(Buffer.from(signature, 'base64')).toHaveLength(64);
    expect(verifyPersonaSignature(record, signature, key.publicKey)).toBe(true);
    expect(verifyPersonaSignature(record, signature, key.publicKeyPem)).toBe(true);
  });

  it('signs the same bytes whatever order the record was built in, and ignores extra properties', () => {
    const reordered = {
      purchaseDate: record.purchaseDate,
      buyerName: record.buyerName,
      author: record.author,
      title: record.title,
      bookId: record.bookId,
      personaId: record.personaId,
    };
    const withExtras = { ...record, sha256: 'abc', createdAt: 'now' } as PersonaSignedRecord;
    const signature = signPersona(record, key);
    expect(signPersona(reordered, key)).toBe(signature);
    expect(verifyPersonaSignature(withExtras, signature, key.publicKey)).toBe(true);
  });

  it.each(Object.keys(record) as Array<keyof PersonaSignedRecord>)('fails when %s changes', (field) => {
    const signature = signPersona(record, key);
    expect(verifyPersonaSignature({ ...record, [field]: `${record[field]}x` }, signature, key.publicKey)).toBe(false);
  });

  it('fails when the Unicode form of the name changes (NFD vs NFC)', () => {
    const signature = signPersona(record, key);
    expect(verifyPersonaSignature({ ...record, buyerName: record.buyerName.normalize('NFD') }, signature, key.publicKey)).toBe(false);
  });

  it('fails under another key', () => {
    const signature = signPersona(record, key);
    expect(verifyPersonaSignature(record, signature, generateSigningKey().publicKey)).toBe(false);
  });

  it('returns false, never throws, for garbage signatures and keys', () => {
    const signature = signPersona(record, key);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
    for (const bad of ['', 'not base64 !!', 'AAAA', signature.slice(0, -4), `${signature}AAAA`, Buffer.alloc(64).toString('base64')]) {
      expect(verifyPersonaSignature(record, bad, key.publicKey)).toBe(false);
    }
    expect(verifyPersonaSignature(record, signature, 'not a pem')).toBe(false);
    expect(verifyPersonaSignature(record, signature, '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n')).toBe(false);
    expect(verifyPersonaSignature(record, signature, rsa)).toBe(false);
    expect(verifyPersonaSignature(record, null as unknown as string, key.publicKey)).toBe(false);
  });
});

describe('signing keys', () => {
  it('round-trips through PKCS8 PEM keeping the key id and the public key', () => {
    const key = generateSigningKey();
    const pem = signingKeyToPem(key);
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const restored = signingKeyFromPem(pem);
    expect(restored.keyId).toBe(key.keyId);
    expect(restored.publicKeyPem).toBe(key.publicKeyPem);
    expect(verifyPersonaSignature(record, signPersona(record, restored), key.publicKeyPem)).toBe(true);
  });

  it('derives the key id from the SHA-256 of the SPKI public key', () => {
    const key = generateSigningKey();
    expect(key.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(key.keyId).toBe(sha256Hex(key.publicKey.export({ type: 'spki', format: 'der' })).slice(0, 16));
    expect(generateSigningKey().keyId).not.toBe(key.keyId);
  });

  it('refuses a PEM that is not an Ed25519 private key', () => {
    const rsaPem = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => signingKeyFromPem(rsaPem)).toThrow(/Ed25519/);
    expect(() => signingKeyFromPem('garbage')).toThrow();
  });
});

describe('sha256Hex', () => {
  it('hashes bytes to lowercase hex', () => {
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe("a gift's signature", () => {
  const key = generateSigningKey();
  const gift: PersonaSignedRecord = { ...record, recipientName: 'अनन्या', message: 'जन्मदिन मुबारक!\nWith love' };

  it("covers the recipient's name and the message", () => {
    const signature = signPersona(gift, key);
    expect(verifyPersonaSignature(gift, signature, key.publicKey)).toBe(true);
    expect(verifyPersonaSignature({ ...gift, recipientName: 'Someone else' }, signature, key.publicKey)).toBe(false);
    expect(verifyPersonaSignature({ ...gift, message: 'Another message' }, signature, key.publicKey)).toBe(false);
    expect(verifyPersonaSignature({ ...gift, message: undefined }, signature, key.publicKey)).toBe(false);
    expect(verifyPersonaSignature(record, signature, key.publicKey)).toBe(false);
  });

  it('leaves the signed JSON of a Persona that is no gift exactly as before gifts existed', () => {
    const signature = signPersona(record, key);
    expect(verifyPersonaSignature({ ...record, recipientName: undefined, message: undefined }, signature, key.publicKey)).toBe(true);
    const sixFields = Buffer.from(
      canonicalJson({
        personaId: record.personaId,
        bookId: record.bookId,
        title: record.title,
        author: record.author,
        buyerName: record.buyerName,
        purchaseDate: record.purchaseDate,
      }),
      'utf8',
    );
    expect(verify(null, sixFields, key.publicKey, Buffer.from(signature, 'base64'))).toBe(true);
  });
});

describe('the signed record, version 2 (issue 24): a gift’s buyer and message only as salted hashes', () => {
  const key = generateSigningKey();
  const gift: PersonaDetails = { ...record, recipientName: 'अनन्या शर्मा', message: 'जन्मदिन मुबारक!\nWith love' };

  it('names the printed name and commits to the buyer and the message by SHA-256 of salt then text', () => {
    const salts = personaSalts(gift, key.privateKey);
    expect(salts.buyerName).toMatch(/^[0-9a-f]{32}$/);
    expect(salts.message).toMatch(/^[0-9a-f]{32}$/);
    expect(salts.buyerName).not.toBe(salts.message);
    // The same for every making of this Persona (a retry writes the same file), another for another Persona or key.
    expect(personaSalts(gift, key.privateKey)).toEqual(salts);
    expect(personaSalts({ ...gift, personaId: 'PRS-2HFA-J8TW-7K3M-9QXD' }, key.privateKey).buyerName).not.toBe(salts.buyerName);
    expect(personaSalts(gift, generateSigningKey().privateKey).buyerName).not.toBe(salts.buyerName);
    const signed = signedRecordOf(gift, salts);
    expect(signed).toEqual({
      v: 2,
      personaId: gift.personaId,
      bookId: gift.bookId,
      title: gift.title,
      author: gift.author,
      name: 'अनन्या शर्मा',
      purchaseDate: gift.purchaseDate,
      buyerNameHash: sha256Hex(Buffer.from(`${salts.buyerName}${gift.buyerName}`, 'utf8')),
      messageHash: sha256Hex(Buffer.from(`${salts.message}${gift.message}`, 'utf8')),
    });
    expect(saltedHash(salts.message!, gift.message!)).toBe(signed.messageHash);
    // Nothing private is in what is signed, so the whole record may be shown to anyone.
    const json = canonicalJson(signed);
    expect(json).not.toContain(gift.buyerName);
    expect(json).not.toContain('मुबारक');
  });

  it('verifies from the public record alone, and fails for another name, buyer hash, message hash or version', () => {
    const salts = personaSalts(gift, key.privateKey);
    const signed = signedRecordOf(gift, salts);
    const signature = signPersona(signed, key);
    expect(verifyPersonaSignature(JSON.parse(canonicalJson(signed)) as PersonaSignedRecord, signature, key.publicKey)).toBe(true);
    expect(verifyPersonaSignature({ ...signed, name: 'Someone else' }, signature, key.publicKey)).toBe(false);
    expect(verifyPersonaSignature(signedRecordOf({ ...gift, buyerName: 'Another giver' }, salts), signature, key.publicKey)).toBe(false);
    expect(verifyPersonaSignature(signedRecordOf({ ...gift, message: 'Another message' }, salts), signature, key.publicKey)).toBe(false);
    expect(verifyPersonaSignature(signedRecordOf(gift, { ...salts, message: 'f'.repeat(32) }), signature, key.publicKey)).toBe(false);
    // The same facts as a version 1 record are another record: neither signature passes for the other.
    expect(verifyPersonaSignature(gift, signature, key.publicKey)).toBe(false);
    expect(verifyPersonaSignature(signed, signPersona(gift, key), key.publicKey)).toBe(false);
  });

  it('still verifies a record signed before issue 24 (version 1), gift or not', () => {
    const old = signPersona(gift, key);
    expect(verifyPersonaSignature(gift, old, key.publicKey)).toBe(true);
    expect(verifyPersonaSignature(record, signPersona(record, key), key.publicKey)).toBe(true);
  });

  it('has no hashes and no salts for a Persona bought for oneself; a gift without its salt is refused', () => {
    expect(personaSalts(record, key.privateKey)).toEqual({});
    expect(signedRecordOf(record, {})).toEqual({
      v: 2,
      personaId: record.personaId,
      bookId: record.bookId,
      title: record.title,
      author: record.author,
      name: record.buyerName,
      purchaseDate: record.purchaseDate,
    });
    expect(() => signedRecordOf(gift, {})).toThrow(/salt/);
    expect(() => signedRecordOf(gift, { buyerName: 'a'.repeat(32) })).toThrow(/message needs its salt/);
  });
});
