// A printed Persona's print files (issue 27), timed beside the Persona PDF of the same book:
//   node bench/pdf/measure-print-files.cjs
// Typesets a book of a little over 300 pages (book-text.cjs, 33 chapters; with a print-resolution cover),
// then makes its interior (A5 + bleed sheets, TrimBox/BleedBox) and its cover spread, and
// preflights both (pdf-lib and poppler), each three times after the Persona is made (the median).
// Prints {pages, personaMs, interiorMs, coverMs, preflightMs, interiorBytes, coverBytes, spineInches, problems}.
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { buildPersonaPdf, generateSigningKey, leakMark, markSecret, signPersona, printInterior, printCover, preflight, spineInches } = require(
  process.env.PERSONA_PDF_MODULE || '@persona/personalization/pdf',
);

const record = {
  personaId: 'PRS-7K3M-9QXD-2HFA-J8TW',
  bookId: '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c',
  title: 'A Long Book',
  author: 'Mira Kapoor',
  buyerName: 'Zoë Ünal',
  purchaseDate: '2026-11-22',
};
const { bookParagraphs } = require('./book-text.cjs');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn) {
  const started = process.hrtime.bigint();
  const value = await fn();
  return { value, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

(async () => {
  const cover = new Uint8Array(readFileSync(path.join(__dirname, '../../services/catalogue/seed/covers/the-backwaters-ledger.jpg')));
  const key = generateSigningKey();
  const persona = await time(() =>
    buildPersonaPdf({
      record,
      signature: signPersona(record, key),
      keyId: key.keyId,
      verifyUrl: `https://shop.example/verify/${record.personaId}`,
      source: { kind: 'text', paragraphs: bookParagraphs(33) },
      mark: leakMark(markSecret(key.privateKey), record.personaId),
      cover,
      copyNo: 37,
    }),
  );
  const runs = [];
  for (let i = 0; i < 3; i += 1) {
    const interior = await time(() => printInterior(persona.value.bytes, { hasCover: true, title: record.title }));
    const coverSpread = await time(() =>
      printCover({
        title: record.title,
        author: record.author,
        blurb: 'A long book about a river, and the town that watched it.',
        name: record.buyerName,
        copyNo: 37,
        personaId: record.personaId,
        verifyUrl: `https://shop.example/verify/${record.personaId}`,
        cover,
        pages: interior.value.pages,
        paper: 'white',
      }),
    );
    const spine = spineInches(interior.value.pages, 'white');
    const checked = await time(() =>
      Promise.all([preflight(interior.value.bytes, { kind: 'interior' }), preflight(coverSpread.value.bytes, { kind: 'cover', spineInches: spine })]),
    );
    runs.push({ interior, coverSpread, checked, spine });
  }
  const last = runs[runs.length - 1];
  process.stdout.write(
    JSON.stringify({
      pages: last.interior.value.pages,
      personaMs: persona.ms,
      interiorMs: median(runs.map((r) => r.interior.ms)),
      coverMs: median(runs.map((r) => r.coverSpread.ms)),
      preflightMs: median(runs.map((r) => r.checked.ms)),
      interiorBytes: last.interior.value.bytes.length,
      coverBytes: last.coverSpread.value.bytes.length,
      spineInches: last.spine,
      problems: last.checked.value.flatMap((r) => r.problems),
    }) + '\n',
  );
})();
