// EPUB Personas (issue 13, point 4): valid EPUB 3 by epubcheck, reproducible to the byte, the
// dedication page and a colophon naming the copy in every chapter, the metadata, and a manifest
// whose file hashes hold and whose signature verifies with the shop's public key.
import { execFile } from 'node:child_process';
import { createHash, verify } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PersonaDetails, PersonaSignedRecord } from '@persona/contracts';
import { createCanvas } from '@napi-rs/canvas';
import { EPUBCHECK, programsInstalled } from '@persona/test-kit';
import { buildPersonaEpub, chaptersOf, languageTag, type PersonaEpubInput } from '../../../src/modules/epub/build-persona-epub';
import { generateSigningKey, saltedHash, signedRecordOf, signPersona, verifyPersonaSignature } from '../../../src/modules/signing/persona-signature';
import { leakMark, markSecret } from '../../../src/modules/leak-mark/mark-code';
import { BudgetMeter, DOCUMENT_BUDGET, readZip } from '@persona/untrusted';

const key = generateSigningKey();
const record: PersonaDetails = {
  personaId: 'PRS-7K3M-9QXD-2HFA-J8TW',
  bookId: '0b9f6c1e-4a57-4d2a-9c55-3c2f1f7e8a10',
  title: 'The Long Afternoon & Other <Stories>',
  author: 'Mira Kapoor',
  buyerName: 'Zoë Ünal',
  purchaseDate: '2026-11-22',
  recipientName: 'अनन्या शर्मा',
  message: 'जन्मदिन मुबारक हो!\nWith love',
};
const paragraphs = [
  'A prologue before any chapter.',
  '# Chapter 1: The River',
  'The evening light lay long across the water & nobody said a word.',
  'Second paragraph, with a <tag> and a "quote".',
  '# Chapter 2',
  'नमस्ते दुनिया, यह एक परीक्षण है।',
];
const salts = { buyerName: 'a'.repeat(32), message: 'b'.repeat(32) };
const input = (over: Partial<PersonaEpubInput> = {}): PersonaEpubInput => ({
  record,
  salts,
  signature: signPersona(signedRecordOf(record, salts), key),
  keyId: key.keyId,
  privateKey: key.privateKey,
  verifyUrl: `https://shop.example/verify/${record.personaId}`,
  paragraphs,
  language: 'English',
  mark: leakMark(markSecret(key.privateKey), record.personaId),
  ...over,
});

/** The files of the archive, name → bytes, read as an uploaded copy would be (every record consistent, nothing overlapping). */
function unzip(bytes: Uint8Array): Map<string, Buffer> {
  return new Map(readZip(bytes, new BudgetMeter(DOCUMENT_BUDGET, 'The EPUB')).map((entry) => [entry.name, entry.data]));
}

function epubcheck(file: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('java', ['-jar', EPUBCHECK.path, file], { maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

describe('an EPUB Persona', () => {
  let epub: Uint8Array;
  let files: Map<string, Buffer>;
  beforeAll(async () => {
    epub = await buildPersonaEpub(input());
    files = unzip(epub);
  });

  it('is valid EPUB 3 by epubcheck', async () => {
    if (!programsInstalled([EPUBCHECK], 'the EPUB is')) return;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'epub-'));
    try {
      const file = path.join(dir, 'persona.epub');
      await writeFile(file, epub);
      const { code, output } = await epubcheck(file);
      expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining('No errors or warnings detected') });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('starts with the stored mimetype, as OCF requires, and is the same bytes when made again', async () => {
    expect(Buffer.from(epub.subarray(30, 38)).toString('latin1')).toBe('mimetype');
    expect(Buffer.from(epub.subarray(38, 58)).toString('latin1')).toBe('application/epub+zip');
    expect(Buffer.from(await buildPersonaEpub(input())).equals(Buffer.from(epub))).toBe(true);
    expect(Buffer.from(await buildPersonaEpub(input({ record: { ...record, message: 'Another' } }))).equals(Buffer.from(epub))).toBe(false);
  });

  it("carries the dedication page (the recipient's name, the message), and in every chapter a colophon naming the copy", () => {
    const dedication = files.get('OEBPS/dedication.xhtml')!.toString('utf8');
    expect(dedication).toContain('Personalised for अनन्या शर्मा');
    expect(dedication).toContain('<p>जन्मदिन मुबारक हो!</p><p>With love</p>');
    expect(dedication).toContain('on 22 November 2026');
    expect(dedication).toContain(record.personaId);
    expect(dedication).toContain('<svg');
    const chapters = [...files.keys()].filter((name) => /chapter-\d+\.xhtml$/.test(name));
    expect(chapters).toHaveLength(3);
    for (const chapter of chapters) {
      expect(files.get(chapter)!.toString('utf8')).toContain(`Personal copy of अनन्या शर्मा · ${record.personaId}`);
    }
    // The text as it reads: the leak mark's characters, which print nothing, set aside (leak-mark.test.ts reads them).
    const body = chapters
      .map((chapter) =>
        files
          .get(chapter)!
          .toString('utf8')
          .replace(/[\u2060\u200B\u200C]/g, ''),
      )
      .join('\n');
    expect(body).toContain('<h1>Chapter 1: The River</h1>');
    expect(body).toContain('water &amp; nobody');
    expect(body).toContain('a &lt;tag&gt; and a &quot;quote&quot;');
    expect(body).toContain('नमस्ते दुनिया, यह एक परीक्षण है।');
    expect(body).not.toContain('Zoë');
  });

  it('says the shop signed for the author, and ends with the colophon: the signed record (the giver and message only as hashes), its signature and the salts', () => {
    const dedication = files.get('OEBPS/dedication.xhtml')!.toString('utf8');
    expect(dedication).toContain('Signed by Persona Books for the author');
    expect(dedication).not.toMatch(/Digitally signed|Ed25519/);
    const colophon = files.get('OEBPS/colophon.xhtml')!.toString('utf8');
    const signed = signedRecordOf(record, salts);
    expect(colophon).toContain(signPersona(signed, key));
    expect(colophon).toContain(`salt ${salts.buyerName}<br/>hash ${saltedHash(salts.buyerName, record.buyerName)}`);
    expect(colophon).toContain(`salt ${salts.message}<br/>hash ${saltedHash(salts.message, record.message!)}`);
    expect([...files.values()].some((data) => data.toString('utf8').includes('Zoë'))).toBe(false);
    expect(files.get('OEBPS/content.opf')!.toString('utf8')).toMatch(/<itemref idref="colophon"\/>\n<\/spine>/);
  });

  it('describes itself and signs its manifest: every hash holds, the signatures verify with the public key', () => {
    const opf = files.get('OEBPS/content.opf')!.toString('utf8');
    const meta = (property: string) => {
      const raw = new RegExp(`<meta property="${property}">([^<]*)</meta>`).exec(opf)?.[1] ?? '';
      return raw
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&apos;/g, "'")
        .replace(/&amp;/g, '&');
    };
    expect(opf).toContain(`<dc:identifier id="persona-id">urn:persona:${record.personaId}</dc:identifier>`);
    expect(opf).toContain('<dc:language>en</dc:language>');
    expect(opf).toContain('<dc:title>The Long Afternoon &amp; Other &lt;Stories&gt;</dc:title>');
    expect(meta('persona:id')).toBe(record.personaId);
    expect(verifyPersonaSignature(JSON.parse(meta('persona:record')) as PersonaSignedRecord, meta('persona:signature'), key.publicKey)).toBe(true);
    const manifest = JSON.parse(meta('persona:manifest')) as { personaId: string; files: Record<string, string> };
    expect(manifest.personaId).toBe(record.personaId);
    expect(Object.keys(manifest.files).sort()).toEqual([...files.keys()].filter((name) => name.startsWith('OEBPS/') && name !== 'OEBPS/content.opf').sort());
    for (const [name, sha256] of Object.entries(manifest.files)) expect(createHash('sha256').update(files.get(name)!).digest('hex')).toBe(sha256);
    const signature = Buffer.from(meta('persona:manifest-signature'), 'base64');
    expect(verify(null, Buffer.from(meta('persona:manifest'), 'utf8'), key.publicKey, signature)).toBe(true);
    expect(verify(null, Buffer.from(meta('persona:manifest').replace('"', "'"), 'utf8'), key.publicKey, signature)).toBe(false);
  });

  it("with the book's cover and the author's own signature: still valid EPUB 3, the cover first and its cover image, the signature drawn", async () => {
    const canvas = createCanvas(300, 450);
    const context = canvas.getContext('2d');
    context.fillStyle = '#345';
    context.fillRect(0, 0, 300, 450);
    const cover = new Uint8Array(canvas.toBuffer('image/jpeg'));
    const signature = new Uint8Array(createCanvas(300, 100).toBuffer('image/png'));
    const pictured = await buildPersonaEpub(input({ cover, authorSignature: signature }));
    const entries = unzip(pictured);
    const opf = entries.get('OEBPS/content.opf')!.toString('utf8');
    expect(opf).toContain('<item id="cover-image" href="cover.jpg" media-type="image/jpeg" properties="cover-image"/>');
    expect(opf).toMatch(/<spine>\n<itemref idref="cover"\/>/);
    expect(Buffer.from(entries.get('OEBPS/cover.jpg')!).equals(Buffer.from(cover))).toBe(true);
    const dedication = entries.get('OEBPS/dedication.xhtml')!.toString('utf8');
    expect(dedication).toContain('<img class="author-signature" src="signature.png"');
    expect(dedication).not.toContain('Signed by Persona Books');
    // The manifest covers the images too.
    const manifest = JSON.parse(/<meta property="persona:manifest">([^<]*)<\/meta>/.exec(opf)![1]!.replace(/&quot;/g, '"')) as {
      files: Record<string, string>;
    };
    expect(manifest.files['OEBPS/cover.jpg']).toBe(createHash('sha256').update(cover).digest('hex'));
    if (!programsInstalled([EPUBCHECK], 'the EPUB is')) return;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'epub-'));
    try {
      const file = path.join(dir, 'pictured.epub');
      await writeFile(file, pictured);
      const { code, output } = await epubcheck(file);
      expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining('No errors or warnings detected') });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('cuts chapters at headings and names languages by their tags', () => {
    expect(chaptersOf(['Intro.', '# One', 'a', '', '# Two', 'b']).map((c) => [c.title, c.paragraphs])).toEqual([
      ['', ['Intro.']],
      ['One', ['a']],
      ['Two', ['b']],
    ]);
    expect([languageTag('Bengali'), languageTag(' hindi '), languageTag('Klingon')]).toEqual(['bn', 'hi', 'und']);
  });
});
