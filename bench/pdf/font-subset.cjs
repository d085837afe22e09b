// Our TrueType subsetter beside pdf-lib's fontkit, on a Persona's dedication line in DejaVu Sans:
// time per subset (first call cold, then warm) and whether each gives the same bytes twice.
//   node bench/pdf/font-subset.cjs [rounds=3]
// Needs a built workspace (npm run build -w @persona/personalization).
const { performance } = require('node:perf_hooks');
const fs = require('node:fs');
const path = require('node:path');

const service = path.resolve(__dirname, '../../services/personalization');
const from = (id) => require(require.resolve(id, { paths: [service] }));
const { TrueTypeFont } = require(path.join(service, 'dist/src/modules/fonts/truetype.js'));
const { PDFDocument } = from('pdf-lib');
const fontkit = from('@pdf-lib/fontkit');

const fontFile = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json', { paths: [service] })), 'ttf/DejaVuSans.ttf');
const bytes = new Uint8Array(fs.readFileSync(fontFile));
const text = 'A Persona of Gitanjali for Zoë Ünal, signed by the author on 24 November 2026 — PRS-2026-ABCD-1234';

function ours() {
  const started = performance.now();
  const font = new TrueTypeFont(bytes);
  const out = font.subset([...new Set([...text].map((c) => font.glyphId(c.codePointAt(0))))]);
  return { ms: performance.now() - started, out: Buffer.from(out) };
}

async function fontkitSubset() {
  const started = performance.now();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(bytes, { subset: true });
  doc.addPage().drawText(text, { font, size: 12, x: 20, y: 400 });
  const out = Buffer.from(await doc.save({ useObjectStreams: false }));
  return { ms: performance.now() - started, out };
}

(async () => {
  const rounds = Number(process.argv[2] ?? 3);
  for (let round = 1; round <= rounds; round += 1) {
    const [a, a2] = [ours(), ours()];
    const [b, b2] = [await fontkitSubset(), await fontkitSubset()];
    console.log(
      `round ${round}: ours ${a.ms.toFixed(1)} ms (${a.out.length} B, same bytes twice: ${a.out.equals(a2.out)}); ` +
        `fontkit through pdf-lib ${b.ms.toFixed(1)} ms (a one-page document, ${b.out.length} B, same bytes twice: ${b.out.equals(b2.out)})`,
    );
  }
})();
