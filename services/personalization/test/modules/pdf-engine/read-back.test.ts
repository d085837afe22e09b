// Every script in every field reads back as typed (issue 22): a Persona made for a name, a gift
// message, an author, a title and a book text in Devanagari, Bengali, Tamil, Arabic and accented
// Latin is read with pdf.js, with PDFium (Chromium's viewer) and with poppler's pdftotext in each
// of its modes (reading order, -layout, -raw), and each reader gives the typed text exactly: the name in the dedication and in
// every footer, each line of the message, the author, the title, every paragraph of the text; no
// joiner or replacement character where the text has none. Its EPUB, as an e-reader shows it (the
// leak mark's invisible characters aside, which sit after punctuation and at paragraph ends, never
// inside a phrase), has the same texts.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { epubTexts, itWithPrograms, pageTextsByReader, PDFTOTEXT } from '@persona/test-kit';
import { type PersonaPdfInput } from '../../../src/modules/pdf-engine/build-persona-pdf';
import { buildPersona } from '../../../src/modules/build-pool/build-persona';
import { generateSigningKey } from '../../../src/modules/signing/persona-signature';
import { personaInput, TEST_RECORD } from '../../fixtures/persona-input';

const key = generateSigningKey();

interface Sample {
  script: string;
  title: string;
  author: string;
  name: string;
  message: string[];
  paragraphs: string[];
}

const SAMPLES: Sample[] = [
  {
    script: 'Devanagari',
    title: 'सूरज की किरण',
    author: 'सूरज प्रकाश',
    name: 'क्षत्रिय अनन्या शर्मा',
    message: ['जन्मदिन की शुभकामनाएँ, प्रिय!', 'सदा मुस्कुराते रहो।'],
    paragraphs: [
      '# पहला अध्याय',
      'सुबह सूरज उगा और गाँव की गलियों में धूप फैल गई। बच्चों ने शुभकामनाएँ दीं, और बूढ़े किसान ने हल उठाया।',
      'क्षितिज पर पक्षियों की पंक्ति दिखी; हवा में मिट्टी की सुगंध थी।',
    ],
  },
  {
    script: 'Bengali',
    title: 'নদীর গান',
    author: 'রবীন্দ্রনাথ ঠাকুর',
    name: 'শ্রীকান্ত',
    message: ['শুভ জন্মদিন, বন্ধু!'],
    paragraphs: ['# প্রথম অধ্যায়', 'শ্রাবণের সকালে নদীর ধারে কৃষ্ণচূড়া ফুটেছিল। মাঝি গান গাইছিল, আর ছেলেরা জলে ঝাঁপ দিচ্ছিল।'],
  },
  {
    script: 'Tamil',
    title: 'கடலின் குரல்',
    author: 'கல்கி கிருஷ்ணமூர்த்தி',
    name: 'தமிழ்செல்வி',
    message: ['இனிய பிறந்தநாள் வாழ்த்துக்கள்!'],
    paragraphs: ['# முதல் அத்தியாயம்', 'காலையில் கடற்கரையில் மீனவர்கள் வலைகளை விரித்தனர். குழந்தைகள் மணலில் கோட்டைகள் கட்டினார்கள்.'],
  },
  {
    script: 'Arabic',
    title: 'صوت البحر',
    author: 'نجيب محفوظ',
    name: 'فاطمة الزهراء',
    message: ['عيد ميلاد سعيد يا صديقتي!'],
    paragraphs: ['# الفصل الأول', 'في الصباح خرج الصيادون إلى البحر، وكانت الشمس تشرق على المدينة القديمة.'],
  },
  {
    script: 'accented Latin',
    title: 'Ça va, Zoë?',
    author: 'Łukasz Ñandú-Øster',
    name: 'Zoë Ünal',
    message: ['Joyeux anniversaire, ma chère!', 'À bientôt — Søren'],
    paragraphs: ['# Première partie', 'Le café était naïf; la façade, crème brûlée. Škoda, Ærø, Dvořák et Ğürsel s’y retrouvaient.'],
  },
];

/** A plain two-page book PDF: the Persona made of an uploaded PDF prints the same pages of its own. */
async function sourcePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of ['Chapter one', 'Chapter two']) doc.addPage([420, 595]).drawText(text, { x: 60, y: 500, size: 14, font });
  return doc.save();
}

function input(sample: Sample, source: PersonaPdfInput['source']): PersonaPdfInput {
  return personaInput(key, source, {
    title: sample.title,
    author: sample.author,
    buyerName: 'Asha Rao',
    recipientName: sample.name,
    message: sample.message.join('\n'),
  });
}

const lines = (page: string) => page.split('\n');
const STRAY = /[\u200d\ufffd]/u;

/**
 * poppler reads a page whose text is mostly right to left (a page of an Arabic book's text) as a
 * right-to-left page: in its reading order (default and -layout) its left-to-right lines come out
 * in right-to-left order ("· PRS-… فاطمة الزهراء Personal copy of"), and in every mode a
 * punctuation mark followed by a space may split a line's right-to-left text in two. On such pages
 * poppler and PDFium are held to finding each text's words whole (the name in the footer, every
 * word of a paragraph); pdf.js reads them exactly, and the others every other page.
 */
const RIGHT_TO_LEFT = /[\u0590-\u08ff]/gu;
const rightToLeftPage = (page: string) => (page.match(RIGHT_TO_LEFT)?.length ?? 0) > (page.match(/\p{L}/gu)?.length ?? 0) / 2;
/**
 * PDFium (Chromium's viewer) reorders a line that mixes right-to-left and left-to-right text by its
 * own bidi rules, as it does the lines of a PDF Chromium itself prints ("فاطمة الزهراء for
 * Personalised"): such a line is held to having each of its words whole; every other line is exact.
 */
const mixedDirections = (line: string) => /[\u0590-\u08ff]/u.test(line) && /\p{Script=Latin}/u.test(line);
const words = (text: string) => new Set(text.split(/[\s\p{P}]+/u).filter(Boolean));

/** What each reader must read back of a Persona: its pages' lines, and the paragraphs once their lines are joined. */
async function expectReadsBack(pdf: Uint8Array, sample: Sample, options: { titlePage: boolean; text: boolean }) {
  const footer = `Personal copy of ${sample.name} · ${TEST_RECORD.personaId}`;
  for (const [reader, pages] of Object.entries(await pageTextsByReader(pdf))) {
    const seen = { reader, script: sample.script };
    const dedication = 1;
    const found = (page: number) => lines(pages[page] ?? '');
    const laxOn = (page: number) => reader !== 'pdf.js' && rightToLeftPage(pages[page] ?? '');
    expect({ ...seen, stray: pages.filter((page) => STRAY.test(page)) }).toEqual({ ...seen, stray: [] });
    // The dedication page: the name, the message line by line, the author.
    const has = (page: number, line: string) =>
      reader === 'pdfium' && mixedDirections(line) ? [...words(line)].every((word) => words(pages[page] ?? '').has(word)) : found(page).includes(line);
    for (const line of [`Personalised for ${sample.name}`, ...sample.message, sample.author]) {
      expect({ ...seen, line, found: has(dedication, line) }).toEqual({ ...seen, line, found: true });
    }
    // Every page's footer names its reader.
    pages.forEach((_, page) => {
      const present = laxOn(page)
        ? found(page).some(
            (line) => (line.includes(sample.name) || [...words(sample.name)].every((word) => words(line).has(word))) && line.includes(TEST_RECORD.personaId),
          )
        : has(page, footer);
      expect({ ...seen, page, footer: present }).toEqual({ ...seen, page, footer: true });
    });
    if (options.titlePage) {
      for (const line of [sample.title, sample.author]) expect({ ...seen, line, found: has(0, line) }).toEqual({ ...seen, line, found: true });
    }
    if (options.text) {
      // The book's text, each paragraph across the lines it was broken into (footers and page numbers aside).
      const bodyPages = pages.map((_, page) => page).slice(2);
      const body = bodyPages
        .map((page) =>
          lines(pages[page]!)
            .filter((line) => !line.includes(TEST_RECORD.personaId) && !/^\d+$/.test(line))
            .join(' '),
        )
        .join(' ');
      const lax = bodyPages.some(laxOn);
      for (const paragraph of sample.paragraphs.map((p) => p.replace(/^#\s+/, ''))) {
        const has = lax ? [...words(paragraph)].every((word) => words(body).has(word)) : body.includes(paragraph);
        expect({ ...seen, paragraph, found: has }).toEqual({ ...seen, paragraph, found: true });
      }
    }
  }
}

const itReads = itWithPrograms([PDFTOTEXT], "poppler's reading of the Persona PDFs");

describe('every script in every field reads back as typed', () => {
  for (const sample of SAMPLES) {
    itReads(`${sample.script}: a Persona typeset from the book's text, with pdf.js, PDFium and every mode of pdftotext, and its EPUB`, async () => {
      const built = await buildPersona({
        ...input(sample, { kind: 'text', paragraphs: sample.paragraphs }),
        epub: { privateKey: key.privateKey, language: sample.script },
      });
      await expectReadsBack(built.bytes, sample, { titlePage: true, text: true });
      // The EPUB: every document's lines with the mark's invisible characters taken out are the texts typed.
      const epub = epubTexts(built.epub!).map((text) => text.replace(/[\u2060\u200b]|\u200c(?=[\u2060\u200b\u200c\s]|$)/gmu, ''));
      const epubLines = epub.flatMap(lines);
      const seen = { script: sample.script };
      expect({ ...seen, stray: epub.filter((text) => STRAY.test(text)) }).toEqual({ ...seen, stray: [] });
      for (const line of [sample.title, sample.author, sample.name, ...sample.message, ...sample.paragraphs.map((p) => p.replace(/^#\s+/, ''))]) {
        expect({ ...seen, line, found: epubLines.some((found) => found === line || found.includes(line)) }).toEqual({ ...seen, line, found: true });
      }
    });

    itReads(`${sample.script}: a Persona of an uploaded PDF, with pdf.js, PDFium and every mode of pdftotext`, async () => {
      const pdf = await buildPersona(input(sample, { kind: 'pdf', bytes: await sourcePdf() }));
      await expectReadsBack(pdf.bytes, sample, { titlePage: false, text: false });
    });
  }
});
