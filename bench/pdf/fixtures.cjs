// Writes the PDF benchmark's inputs: a 300-page A5 book and a one-page stamp
// (the footer qpdf overlays on every page, as a Persona does).
const { writeFileSync, mkdirSync } = require('node:fs');
const path = require('node:path');
const { PDFDocument, StandardFonts } = require('pdf-lib');

const WORDS = 'the evening light lay long across water and nobody on the bank said a word while the river carried leaves past quiet houses'.split(' ');

(async () => {
  const dir = process.argv[2];
  mkdirSync(dir, { recursive: true });
  const book = await PDFDocument.create();
  const font = await book.embedFont(StandardFonts.TimesRoman);
  for (let n = 1; n <= 300; n += 1) {
    const page = book.addPage([420, 595]);
    for (let line = 0; line < 32; line += 1)
      page.drawText(`${n}.${line} ${WORDS.slice(line % 8, (line % 8) + 12).join(' ')}`, { x: 50, y: 540 - line * 15, size: 10, font });
  }
  writeFileSync(path.join(dir, 'book.pdf'), await book.save({ useObjectStreams: true }));
  const stamp = await PDFDocument.create();
  const stampFont = await stamp.embedFont(StandardFonts.Helvetica);
  stamp.addPage([420, 595]).drawText('Personal copy of Zoe Unal - PRS-7K3M-9QXD-2HFA-J8TW', { x: 90, y: 20, size: 7, font: stampFont });
  writeFileSync(path.join(dir, 'stamp.pdf'), await stamp.save());
})();
