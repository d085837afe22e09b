// The dedication page's parts never overlap: each line of text, the author's flourish, the rule
// and the QR code keep clear of one another, for a short and a long name, with and without a
// gift's message (a flourish that cut through "Digitally signed" passed every other test).
import { A5Frame, drawDedicationPage, type DedicationText } from '../../../src/modules/pdf-engine/persona-pages';
import type { TextStyle } from '../../../src/modules/pdf-engine/persona-fonts';

interface Box {
  what: string;
  left: number;
  bottom: number;
  right: number;
  top: number;
}

/** A frame that draws nothing and records each part's box (text as wide as 0.5 em a character, from its descent to its ascent). */
class RecordingFrame extends A5Frame {
  readonly boxes: Box[] = [];
  width(text: string, _style: TextStyle, size: number): number {
    return [...text].length * size * 0.5;
  }
  protected text(line: string, x: number, y: number, size: number): void {
    this.boxes.push({ what: `text “${line}”`, left: x, bottom: y - 0.22 * size, right: x + this.width(line, 'serif', size), top: y + 0.76 * size });
  }
  rule(x1: number, x2: number, y: number): void {
    this.boxes.push({ what: 'rule', left: x1, bottom: y - 0.25, right: x2, top: y + 0.25 });
  }
  path(d: string, x: number, y: number, scale: number): void {
    const numbers = (d.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);
    const xs = numbers.filter((_, i) => i % 2 === 0).map((n) => x + n * scale);
    const ys = numbers.filter((_, i) => i % 2 === 1).map((n) => y - n * scale);
    this.boxes.push({ what: 'flourish', left: Math.min(...xs), bottom: Math.min(...ys), right: Math.max(...xs), top: Math.max(...ys) });
  }
  qr(_url: string, x: number, top: number, side: number): void {
    this.boxes.push({ what: 'QR code', left: x, bottom: top - side, right: x + side, top });
  }
}

const BASE: DedicationText = {
  name: 'Asha Rao',
  message: [],
  formattedDate: '22 November 2026',
  author: 'Mira Kapoor',
  signature: 'A'.repeat(88),
  keyId: '780d3d40ba773887',
  personaId: 'PRS-7K3M-9QXD-2HFA-J8TW',
  verifyUrl: 'https://shop.example/verify/PRS-7K3M-9QXD-2HFA-J8TW',
};

const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.bottom < b.top && b.bottom < a.top;

describe('the dedication page', () => {
  for (const [label, text] of [
    ['a short name', BASE],
    ['a long name and author', { ...BASE, name: 'Venkata Lakshmi Narasimha Subrahmanya Sastry', author: 'Rabindranath Tagore Thakur' }],
    ['a gift with a six-line message', { ...BASE, message: ['Happy birthday!', 'With love,', 'from all of us', 'at home', 'in Pune', 'Asha'] }],
  ] as const) {
    it(`keeps every part clear of the others: ${label}`, () => {
      const frame = new RecordingFrame();
      drawDedicationPage(frame, text);
      const clashes: string[] = [];
      frame.boxes.forEach((a, i) => frame.boxes.slice(i + 1).forEach((b) => overlap(a, b) && clashes.push(`${a.what} × ${b.what}`)));
      expect(clashes).toEqual([]);
      for (const box of frame.boxes)
        expect({ what: box.what, inside: box.left >= 0 && box.right <= 420 && box.bottom >= 0 && box.top <= 595 }).toEqual({ what: box.what, inside: true });
    });
  }
});
