// One Persona build in its own process, so its peak RSS is its own:
//   node bench/pdf/measure-persona-pdf.cjs pdf <book.pdf>   personalise an uploaded PDF
//   node bench/pdf/measure-persona-pdf.cjs text             typeset a ~300-page book
// Prints {pages, ms, peakRssMb}: ms is the build alone; peak RSS is the whole process (getrusage).
const { readFileSync } = require('node:fs');
const { buildPersonaPdf } = require('@persona/personalization/pdf');
const { generateSigningKey, signPersona } = require('@persona/personalization/pdf');

const record = { personaId: 'PRS-7K3M-9QXD-2HFA-J8TW', bookId: '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c', title: 'A Long Book', author: 'Mira Kapoor', buyerName: 'Zoë Ünal', purchaseDate: '2026-11-22' };
const WORDS = 'the evening light lay long across water and nobody on the bank said a word while the river carried leaves past quiet houses of the town'.split(' ');

function paragraphs() {
  const out = [];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let chapter = 1; chapter <= 30; chapter += 1) {
    out.push(`# Chapter ${chapter}`);
    for (let p = 0; p < 28; p += 1) {
      const words = [];
      const n = 60 + (next() % 90);
      for (let w = 0; w < n; w += 1) words.push(WORDS[next() % WORDS.length]);
      out.push(`${words.join(' ')}.`);
    }
  }
  return out;
}

(async () => {
  const [kind, file] = process.argv.slice(2);
  const source = kind === 'pdf' ? { kind: 'pdf', bytes: new Uint8Array(readFileSync(file)) } : { kind: 'text', paragraphs: paragraphs() };
  const key = generateSigningKey();
  const started = process.hrtime.bigint();
  const pdf = await buildPersonaPdf({ record, signature: signPersona(record, key), keyId: key.keyId, verifyUrl: `https://shop.example/verify/${record.personaId}`, source });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  process.stdout.write(JSON.stringify({ pages: pdf.pages, ms, peakRssMb: process.resourceUsage().maxRSS / 1024 }) + '\n');
})();
