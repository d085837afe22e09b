// A Persona as an EPUB 3 (issue 13, point 4): the book's cover (issue 24) and reflowable chapters
// from its text, the same dedication page as the PDF (the name printed, the date, a gift's message,
// the author's own signature or the shop's word that it signs for them, the persona id and its
// verify link with the QR code as SVG), a line naming the copy in every chapter, the colophon at the
// end with the signed record, its signature and a gift's salts (as the PDF's), the metadata, and a
// signed manifest in the package document: the SHA-256 of every other file, signed with the shop's
// Ed25519 key beside the record's own signature. Deterministic, as the PDF: the same inputs give
// the same bytes (zip.ts).
import { createHash, sign, type KeyObject } from 'node:crypto';
import type { PersonaDetails, PersonaSalts } from '@persona/contracts';
import { isChapterHeading } from '../persona-print/chapter-heading';
import { formatPurchaseDate, parsePurchaseDate } from '../persona-print/format-date';
import { copyNumberLine, copyNumberProof, footerText, SIGNED_FOR_THE_AUTHOR } from '../persona-print/printed-lines';
import { qrMatrix } from '../persona-print/qr-rectangles';
import { canonicalJson, signedRecordOf } from '../signing/persona-signature';
import { epubMarker } from '../leak-mark/epub-mark';
import { zip } from './zip';

export interface PersonaEpubInput {
  /** What the copy prints (a gift's buyer and message included). */
  record: PersonaDetails;
  /** The salts of its private details, as the PDF's. */
  salts?: PersonaSalts;
  /** The record's signature (the same as the PDF's). */
  signature: string;
  keyId: string;
  /** Signs the manifest. */
  privateKey: KeyObject;
  verifyUrl: string;
  paragraphs: string[];
  /** The book's language as readers name it ("English", "Bengali"). */
  language: string;
  /** The copy's leak mark (leak-mark/mark-code.ts), written into the chapters' text. */
  mark: number;
  /** Its number among its book's Personas, as the PDF prints it. */
  copyNo?: number;
  /** The book's cover (PNG or JPEG): the EPUB's cover image, and its first page. */
  cover?: Uint8Array;
  /** The author's own signature (PNG), on the dedication page. */
  authorSignature?: Uint8Array;
}

const isPng = (bytes: Uint8Array) => bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;

/** Language names the catalogue uses → BCP 47 tags; an unknown one is 'und' (undetermined), never a guess. */
const LANGUAGE_TAGS: Record<string, string> = {
  english: 'en',
  hindi: 'hi',
  bengali: 'bn',
  bangla: 'bn',
  tamil: 'ta',
  telugu: 'te',
  marathi: 'mr',
  malayalam: 'ml',
  kannada: 'kn',
  gujarati: 'gu',
  punjabi: 'pa',
  urdu: 'ur',
  arabic: 'ar',
  sanskrit: 'sa',
  nepali: 'ne',
  french: 'fr',
  german: 'de',
  spanish: 'es',
  portuguese: 'pt',
  italian: 'it',
  russian: 'ru',
  greek: 'el',
};
export const languageTag = (name: string) => LANGUAGE_TAGS[name.trim().toLowerCase()] ?? 'und';

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
/** Text for XML: NFC, control characters (which XML cannot carry) as spaces. */
const xmlText = (text: string) => escapeXml(text.normalize('NFC').replace(/\p{Cc}/gu, (c) => (c === '\n' || c === '\t' ? c : ' ')));
const oneLine = (text: string) => text.replace(/\s+/gu, ' ').trim();

interface Chapter {
  title: string;
  paragraphs: string[];
}

/** The text cut at its headings ("# …"); text before the first heading opens the book untitled. */
export function chaptersOf(paragraphs: readonly string[]): Chapter[] {
  const chapters: Chapter[] = [];
  for (const paragraph of paragraphs) {
    if (typeof paragraph !== 'string' || !paragraph.trim()) continue;
    if (isChapterHeading(paragraph)) chapters.push({ title: oneLine(paragraph.replace(/^#+\s*/, '')), paragraphs: [] });
    else {
      if (chapters.length === 0) chapters.push({ title: '', paragraphs: [] });
      chapters[chapters.length - 1]!.paragraphs.push(paragraph);
    }
  }
  return chapters;
}

function xhtml(lang: string, title: string, body: string, type = ''): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE html>',
    `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${lang}" lang="${lang}">`,
    '<head>',
    '<meta charset="UTF-8"/>',
    `<title>${xmlText(title)}</title>`,
    '<link rel="stylesheet" type="text/css" href="style.css"/>',
    '</head>',
    `<body${type ? ` epub:type="${type}"` : ''}>`,
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The QR code of the verify link as an inline SVG: one path of the dark modules. */
function qrSvg(url: string): string {
  const { size, rects } = qrMatrix(url);
  const d = rects.map((r) => `M${r.col} ${r.row}h${r.length}v1h-${r.length}z`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" class="qr" viewBox="-2 -2 ${size + 4} ${size + 4}" role="img" aria-label="QR code of the verify link"><rect x="-2" y="-2" width="${size + 4}" height="${size + 4}" fill="#fff"/><path d="${d}" fill="#000"/></svg>`;
}

const STYLE = `body { font-family: serif; line-height: 1.5; margin: 0 5%; }
h1 { font-size: 1.4em; margin: 2em 0 1em; text-align: center; }
p { margin: 0; text-indent: 1.5em; }
h1 + p, .colophon p, .center p, .center { text-indent: 0; }
.center { text-align: center; }
.title { font-size: 1.8em; font-weight: bold; margin-top: 30%; }
.small { font-size: 0.8em; color: #555; }
.name { font-size: 1.3em; margin-top: 1em; }
.message { font-style: italic; margin: 1em 0; }
.signature { font-family: monospace; font-size: 0.7em; word-break: break-all; }
.persona-id { font-family: monospace; font-size: 1.2em; }
.qr { width: 8em; height: 8em; }
.cover { margin: 0; padding: 0; text-align: center; }
.cover img { max-width: 100%; max-height: 95vh; }
.author-signature { max-width: 60%; max-height: 5em; }
.private { text-align: left; }
.colophon { margin-top: 3em; border-top: 1px solid #999; padding-top: 0.5em; font-size: 0.75em; color: #555; text-align: center; }
`;

export async function buildPersonaEpub(input: PersonaEpubInput): Promise<Uint8Array> {
  const { record } = input;
  const lang = languageTag(input.language);
  const name = oneLine(record.recipientName ?? record.buyerName);
  const title = oneLine(record.title);
  const author = oneLine(record.author);
  const date = formatPurchaseDate(record.purchaseDate);
  const day = parsePurchaseDate(record.purchaseDate);
  const colophon = `<footer class="colophon" epub:type="colophon"><p>${xmlText(footerText(name, record.personaId))}</p></footer>`;
  const message = (record.message ?? '').split('\n').map(oneLine).filter(Boolean);

  const salts = input.salts ?? {};
  // What the signature covers: since issue 24 a gift's buyer and message only as salted hashes.
  const signed = signedRecordOf(record, salts);

  const files: Array<{ path: string; id: string; type: string; data: string | Uint8Array; properties?: string; spine?: boolean; linear?: boolean }> = [];
  files.push({ path: 'style.css', id: 'style', type: 'text/css', data: STYLE });
  if (input.cover) {
    const coverPath = isPng(input.cover) ? 'cover.png' : 'cover.jpg';
    files.push({ path: coverPath, id: 'cover-image', type: isPng(input.cover) ? 'image/png' : 'image/jpeg', data: input.cover, properties: 'cover-image' });
    files.push({
      path: 'cover.xhtml',
      id: 'cover',
      type: 'application/xhtml+xml',
      spine: true,
      data: xhtml(lang, title, `<section class="cover" epub:type="cover"><img src="${coverPath}" alt="${xmlText(`The cover of ${title}`)}"/></section>`),
    });
  }
  if (input.authorSignature) files.push({ path: 'signature.png', id: 'author-signature', type: 'image/png', data: input.authorSignature });
  files.push({
    path: 'title.xhtml',
    id: 'title',
    type: 'application/xhtml+xml',
    spine: true,
    data: xhtml(
      lang,
      title,
      `<section class="center" epub:type="titlepage"><p class="title">${xmlText(title)}</p><p>${xmlText(author)}</p><p class="small">A Persona edition</p></section>`,
      'frontmatter',
    ),
  });
  files.push({
    path: 'dedication.xhtml',
    id: 'dedication',
    type: 'application/xhtml+xml',
    spine: true,
    properties: 'svg',
    data: xhtml(
      lang,
      'Ex libris',
      [
        '<section class="center" epub:type="dedication">',
        '<p class="small">Ex libris</p>',
        `<p class="name">Personalised for ${xmlText(name)}</p>`,
        `<p>on ${xmlText(date)}</p>`,
        ...(input.copyNo !== undefined ? [`<p class="small">${xmlText(copyNumberLine(input.copyNo))}</p>`] : []),
        ...(message.length ? [`<div class="message">${message.map((line) => `<p>${xmlText(line)}</p>`).join('')}</div>`] : []),
        ...(input.authorSignature
          ? [`<p><img class="author-signature" src="signature.png" alt="${xmlText(`The signature of ${author}`)}"/></p>`, `<p>${xmlText(author)}</p>`]
          : [`<p class="name">${xmlText(author)}</p>`, `<p class="small">${SIGNED_FOR_THE_AUTHOR}</p>`]),
        '<p class="small">Persona id</p>',
        `<p class="persona-id">${xmlText(record.personaId)}</p>`,
        `<p>${qrSvg(input.verifyUrl)}</p>`,
        `<p class="small"><a href="${escapeXml(input.verifyUrl)}">Scan or open to verify this copy</a></p>`,
        '</section>',
        colophon,
      ].join('\n'),
      'frontmatter',
    ),
  });
  const chapters = chaptersOf(input.paragraphs);
  const marked = epubMarker(
    input.mark,
    chapters.flatMap((chapter) => chapter.paragraphs.map(oneLine)),
  );
  chapters.forEach((chapter, index) => {
    const heading = chapter.title || title;
    files.push({
      path: `chapter-${index + 1}.xhtml`,
      id: `chapter-${index + 1}`,
      type: 'application/xhtml+xml',
      spine: true,
      data: xhtml(
        lang,
        heading,
        [
          `<section epub:type="chapter">`,
          `<h1>${xmlText(heading)}</h1>`,
          ...chapter.paragraphs.map((p) => `<p>${xmlText(marked(oneLine(p)))}</p>`),
          '</section>',
          colophon,
        ].join('\n'),
        'bodymatter',
      ),
    });
  });
  const privateDetails = [
    ...(signed.buyerNameHash ? [{ label: "The giver's name", salt: salts.buyerName as string, hash: signed.buyerNameHash }] : []),
    ...(signed.messageHash ? [{ label: 'The message', salt: salts.message as string, hash: signed.messageHash }] : []),
  ];
  files.push({
    path: 'colophon.xhtml',
    id: 'colophon',
    type: 'application/xhtml+xml',
    spine: true,
    data: xhtml(
      lang,
      'Colophon',
      [
        '<section class="center" epub:type="colophon">',
        '<h1>Colophon</h1>',
        `<p>${xmlText(
          `This Persona of ${title} by ${author} was made by Persona Books for ${name} on ${date}. ` +
            (input.authorSignature
              ? "The signature on its dedication page is the author's own, given to the shop for this edition."
              : 'The author did not sign it by hand: Persona Books signs every Persona for the author.'),
        )}</p>`,
        ...(input.copyNo !== undefined ? [`<p>${xmlText(copyNumberProof(input.copyNo))}</p>`] : []),
        '<p>Persona Books signs a record of every copy with its Ed25519 key. Anyone can check the record and its signature at the verify link; the shop can tell whether this very file is the one it made.</p>',
        '<p class="small">The signed record</p>',
        `<p class="signature">${xmlText(canonicalJson(signed))}</p>`,
        `<p class="small">Its signature · Ed25519 · key ${xmlText(input.keyId)}</p>`,
        `<p class="signature">${xmlText(input.signature)}</p>`,
        ...(privateDetails.length
          ? [
              '<p class="small">What stays private</p>',
              '<p>Who gave this copy, and their message, are not in the public record: only a hash of each is, made with a secret salt printed here for you. To check one, take the SHA-256 of its salt followed by the text (a message&#8217;s lines joined by line breaks), and compare it with the hash.</p>',
              ...privateDetails.map(
                (detail) => `<p class="small">${xmlText(detail.label)}</p><p class="signature">salt ${detail.salt}<br/>hash ${detail.hash}</p>`,
              ),
            ]
          : []),
        `<p class="small"><a href="${escapeXml(input.verifyUrl)}">Verify Persona ${xmlText(record.personaId)}</a></p>`,
        '</section>',
      ].join('\n'),
      'backmatter',
    ),
  });
  const toc = chapters.map((chapter, index) => `<li><a href="chapter-${index + 1}.xhtml">${xmlText(chapter.title || title)}</a></li>`).join('\n');
  files.push({
    path: 'nav.xhtml',
    id: 'nav',
    type: 'application/xhtml+xml',
    properties: 'nav',
    data: xhtml(
      lang,
      'Contents',
      [
        '<nav epub:type="toc" id="toc"><h1>Contents</h1><ol>',
        '<li><a href="dedication.xhtml">Ex libris</a></li>',
        toc,
        '<li><a href="colophon.xhtml">Colophon</a></li>',
        '</ol></nav>',
        '<nav epub:type="landmarks" hidden="hidden"><ol>',
        ...(input.cover ? ['<li><a epub:type="cover" href="cover.xhtml">Cover</a></li>'] : []),
        '<li><a epub:type="titlepage" href="title.xhtml">Title page</a></li>',
        '<li><a epub:type="bodymatter" href="chapter-1.xhtml">Start of the book</a></li>',
        '</ol></nav>',
      ].join('\n'),
    ),
  });

  // The signed manifest: every file's SHA-256 (the package document excepted: it carries them).
  const encoded = files.map((file) => ({ ...file, bytes: typeof file.data === 'string' ? Buffer.from(file.data, 'utf8') : Buffer.from(file.data) }));
  const manifest = {
    personaId: record.personaId,
    files: Object.fromEntries(encoded.map((file) => [`OEBPS/${file.path}`, createHash('sha256').update(file.bytes).digest('hex')])),
  };
  const manifestJson = canonicalJson(manifest);
  const manifestSignature = sign(null, Buffer.from(manifestJson, 'utf8'), input.privateKey).toString('base64');
  const modified = `${record.purchaseDate}T00:00:00Z`;
  const opf = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="persona-id" xml:lang="${lang}" prefix="persona: https://persona-books.in/vocab/persona#">`,
    '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">',
    `<dc:identifier id="persona-id">urn:persona:${record.personaId}</dc:identifier>`,
    `<dc:title>${xmlText(title)}</dc:title>`,
    `<dc:creator>${xmlText(author)}</dc:creator>`,
    `<dc:language>${lang}</dc:language>`,
    '<dc:publisher>Persona Books</dc:publisher>',
    `<dc:date>${record.purchaseDate}</dc:date>`,
    `<dc:description>${xmlText(`A Persona of ${title} personalised for ${name}`)}</dc:description>`,
    `<meta property="dcterms:modified">${modified}</meta>`,
    `<meta property="persona:id">${record.personaId}</meta>`,
    `<meta property="persona:record">${xmlText(canonicalJson(signed))}</meta>`,
    `<meta property="persona:signature">${xmlText(input.signature)}</meta>`,
    `<meta property="persona:key-id">${xmlText(input.keyId)}</meta>`,
    `<meta property="persona:manifest">${xmlText(manifestJson)}</meta>`,
    `<meta property="persona:manifest-signature">${manifestSignature}</meta>`,
    '</metadata>',
    '<manifest>',
    ...encoded.map(
      (file) => `<item id="${file.id}" href="${file.path}" media-type="${file.type}"${file.properties ? ` properties="${file.properties}"` : ''}/>`,
    ),
    '</manifest>',
    '<spine>',
    ...encoded.filter((file) => file.spine).map((file) => `<itemref idref="${file.id}"${file.linear === false ? ' linear="no"' : ''}/>`),
    '</spine>',
    '</package>',
    '',
  ].join('\n');
  const container = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">',
    '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>',
    '</container>',
    '',
  ].join('\n');
  return zip(
    [
      { name: 'mimetype', data: Buffer.from('application/epub+zip', 'ascii'), store: true },
      { name: 'META-INF/container.xml', data: Buffer.from(container, 'utf8') },
      { name: 'OEBPS/content.opf', data: Buffer.from(opf, 'utf8') },
      ...encoded.map((file) => ({ name: `OEBPS/${file.path}`, data: file.bytes })),
    ],
    day,
  );
}
