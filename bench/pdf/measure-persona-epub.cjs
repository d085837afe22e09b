// The EPUB Persona beside the PDF Persona of the longest demo book (issue 13's benchmark), in one
// process after a warm-up of each: the PDF as a first Persona of the book (typeset, the prepared
// book's cache emptied before each run) and as a further one (cached), the EPUB (nothing to cache).
// Prints {title, paragraphs, pdfMs, pdfCachedMs, epubMs, epubBytes, pdfBytes}: medians of 5 runs.
const path = require('node:path');
const {
  buildPersonaEpub,
  buildPersonaPdf,
  clearPersonaPdfCache,
  generateSigningKey,
  leakMark,
  markSecret,
  personaSalts,
  signedRecordOf,
  signPersona,
} = require(process.env.PERSONA_PDF_MODULE || '@persona/personalization/pdf');

const demo = require(path.join(__dirname, '../../services/catalogue/seed/demo-catalogue.json'));
const books = Array.isArray(demo) ? demo : demo.books;
const book = books.reduce((longest, b) => (JSON.stringify(b.content ?? []).length > JSON.stringify(longest.content ?? []).length ? b : longest));
const paragraphs = book.content;

const key = generateSigningKey();
const record = {
  personaId: 'PRS-7K3M-9QXD-2HFA-J8TW',
  bookId: '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c',
  title: book.title,
  author: book.author,
  buyerName: 'Zoë Ünal',
  purchaseDate: '2026-11-22',
  recipientName: 'अनन्या शर्मा',
  message: 'जन्मदिन मुबारक हो!\nWith love',
};
// A gift signs its buyer and message as salted hashes (issue 24): the salts go with the record.
const salts = personaSalts(record, key.privateKey);
const common = {
  record,
  salts,
  signature: signPersona(signedRecordOf(record, salts), key),
  keyId: key.keyId,
  verifyUrl: `https://shop.example/verify/${record.personaId}`,
  mark: leakMark(markSecret(key.privateKey), record.personaId),
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function time(fn) {
  const started = process.hrtime.bigint();
  const result = await fn();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, result };
}

(async () => {
  const pdf = () => buildPersonaPdf({ ...common, source: { kind: 'text', paragraphs } });
  const epub = () => buildPersonaEpub({ ...common, privateKey: key.privateKey, paragraphs, language: book.language ?? 'English' });
  await pdf();
  await epub();
  const cold = [];
  const cached = [];
  const epubs = [];
  let sizes = {};
  for (let i = 0; i < 5; i += 1) {
    clearPersonaPdfCache();
    const first = await time(pdf);
    cold.push(first.ms);
    cached.push((await time(pdf)).ms);
    const e = await time(epub);
    epubs.push(e.ms);
    sizes = { pdfBytes: first.result.bytes.length, epubBytes: e.result.length };
  }
  process.stdout.write(
    `${JSON.stringify({ title: book.title, paragraphs: paragraphs.length, pdfMs: median(cold), pdfCachedMs: median(cached), epubMs: median(epubs), ...sizes })}\n`,
  );
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
