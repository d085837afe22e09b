// One Persona build in its own process, so its peak RSS is its own:
//   node bench/pdf/measure-persona-pdf.cjs pdf <book.pdf>   personalise an uploaded PDF
//   node bench/pdf/measure-persona-pdf.cjs text             typeset a ~300-page book
// Add --again to also time a further Persona of the same book (another buyer)
// in the same process: the path a running service takes once the book is
// prepared and cached. Add --out <file> to keep the first Persona.
// Prints {pages, ms, cpuMs, peakRssMb[, again: {ms, cpuMs}]}: ms is the first
// (cold) build alone; peak RSS is the whole process (getrusage).
// PERSONA_PDF_MODULE=<path> measures another build of the engine (default: the workspace's dist).
const { readFileSync, writeFileSync } = require('node:fs');
const { buildPersonaPdf, generateSigningKey, leakMark, markSecret, signPersona } = require(process.env.PERSONA_PDF_MODULE || '@persona/personalization/pdf');

const record = {
  personaId: 'PRS-7K3M-9QXD-2HFA-J8TW',
  bookId: '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c',
  title: 'A Long Book',
  author: 'Mira Kapoor',
  buyerName: 'Zoë Ünal',
  purchaseDate: '2026-11-22',
};
const another = { ...record, personaId: 'PRS-2HFA-J8TW-7K3M-9QXD', buyerName: 'अनन्या Rao', purchaseDate: '2026-11-23' };
const { bookParagraphs } = require('./book-text.cjs');

async function timed(key, persona, source) {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const pdf = await buildPersonaPdf({
    record: persona,
    signature: signPersona(persona, key),
    keyId: key.keyId,
    verifyUrl: `https://shop.example/verify/${persona.personaId}`,
    source,
    mark: leakMark(markSecret(key.privateKey), persona.personaId),
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const used = process.cpuUsage(cpu);
  return { pdf, ms, cpuMs: (used.user + used.system) / 1000 };
}

(async () => {
  const args = process.argv.slice(2);
  const [kind, file] = args.filter((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--out');
  const out = args.includes('--out') ? args[args.indexOf('--out') + 1] : undefined;
  const source = kind === 'pdf' ? { kind: 'pdf', bytes: new Uint8Array(readFileSync(file)) } : { kind: 'text', paragraphs: bookParagraphs() };
  const key = generateSigningKey();
  const first = await timed(key, record, source);
  if (out) writeFileSync(out, first.pdf.bytes);
  const result = { pages: first.pdf.pages, ms: first.ms, cpuMs: first.cpuMs, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  if (args.includes('--again')) {
    const again = await timed(key, another, source);
    result.again = { ms: again.ms, cpuMs: again.cpuMs };
  }
  process.stdout.write(JSON.stringify(result) + '\n');
})();
