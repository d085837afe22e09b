// The dedication page's parts never overlap: each line of text, the author's own signature, the
// rules and the QR code keep clear of one another, for a short and a long name, with and without a
// gift's message (a drawn flourish that cut through "Digitally signed" passed every other test).
// Issue 24: no flourish is ever drawn (the frames draw no paths at all); without the author's own
// signature the page says the shop signed for them; a message is set large, wrapped, and smaller
// only as it must; the colophon carries the record, the signature and a gift's salts, and keeps
// clear too.
import { A5Frame, drawColophonPage, drawDedicationPage, type ColophonText, type DedicationText } from '../../../src/modules/pdf-engine/persona-pages';
import { SIGNED_FOR_THE_AUTHOR } from '../../../src/modules/persona-print/printed-lines';
import type { TextStyle } from '../../../src/modules/fonts/fallback';

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
  readonly sizes = new Map<string, number>();
  width(text: string, _style: TextStyle, size: number): number {
    return [...text].length * size * 0.5;
  }
  protected text(line: string, x: number, y: number, size: number): void {
    this.sizes.set(line, size);
    this.boxes.push({ what: `text “${line}”`, left: x, bottom: y - 0.22 * size, right: x + this.width(line, 'serif', size), top: y + 0.76 * size });
  }
  rule(x1: number, x2: number, y: number): void {
    this.boxes.push({ what: 'rule', left: x1, bottom: y - 0.25, right: x2, top: y + 0.25 });
  }
  qr(_url: string, x: number, top: number, side: number): void {
    this.boxes.push({ what: 'QR code', left: x, bottom: top - side, right: x + side, top });
  }
  authorSignature(x: number, y: number, width: number, height: number): void {
    this.boxes.push({ what: "the author's signature", left: x, bottom: y, right: x + width, top: y + height });
  }
  get texts(): string[] {
    return this.boxes.filter((b) => b.what.startsWith('text')).map((b) => b.what.slice(6, -1));
  }
}

const BASE: DedicationText = {
  name: 'Asha Rao',
  message: [],
  formattedDate: '22 November 2026',
  author: 'Mira Kapoor',
  authorSignature: null,
  personaId: 'PRS-7K3M-9QXD-2HFA-J8TW',
  verifyUrl: 'https://shop.example/verify/PRS-7K3M-9QXD-2HFA-J8TW',
  copyLine: 'Copy No. 37 of the Personas of this book',
};

const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.bottom < b.top && b.bottom < a.top;

/** The longest message checkout takes: 600 characters, in the giver's lines. */
const LONG_MESSAGE = [
  'Dear Ananya, happy birthday! '.repeat(6).trim(),
  'We read this book together the summer you were nine, on the veranda at Nani’s house, and you made me promise to find you your own copy one day.',
  'Here it is, with your name in it. Read it slowly, lend it to nobody, and call me when you reach the last chapter. With all our love, Asha and Ravi',
];

function expectClear(frame: RecordingFrame, footerRoom = 0) {
  const clashes: string[] = [];
  frame.boxes.forEach((a, i) => frame.boxes.slice(i + 1).forEach((b) => overlap(a, b) && clashes.push(`${a.what} × ${b.what}`)));
  expect(clashes).toEqual([]);
  for (const box of frame.boxes)
    expect({ what: box.what, inside: box.left >= 0 && box.right <= 420 && box.bottom >= footerRoom && box.top <= 595 }).toEqual({
      what: box.what,
      inside: true,
    });
}

describe('the dedication page', () => {
  const signed = { width: 600, height: 200 };
  for (const [label, text] of [
    ['a short name', BASE],
    ['a long name and author', { ...BASE, name: 'Venkata Lakshmi Narasimha Subrahmanya Sastry', author: 'Rabindranath Tagore Thakur' }],
    ['a gift with a six-line message', { ...BASE, message: ['Happy birthday!', 'With love,', 'from all of us', 'at home', 'in Pune', 'Asha'] }],
    ['a gift with the longest message', { ...BASE, message: LONG_MESSAGE }],
    ["the author's own signature and the longest message", { ...BASE, authorSignature: signed, message: LONG_MESSAGE }],
    ['a tall signature image and a long name', { ...BASE, authorSignature: { width: 100, height: 400 }, name: 'Venkata Lakshmi Narasimha Subrahmanya Sastry' }],
  ] as const) {
    it(`keeps every part clear of the others and of the footer: ${label}`, () => {
      const frame = new RecordingFrame();
      drawDedicationPage(frame, text);
      // The footer's baseline is 22 pt up; its text reaches about 5 pt above it.
      expectClear(frame, 28);
    });
  }

  it('never draws a flourish: the shop signs for the author, in words, unless the author gave their own signature', () => {
    const shop = new RecordingFrame();
    drawDedicationPage(shop, BASE);
    expect(shop.boxes.some((b) => b.what === "the author's signature")).toBe(false);
    expect(shop.texts).toContain(SIGNED_FOR_THE_AUTHOR);
    expect(shop.texts.join(' ')).not.toMatch(/digitally signed/i);

    const own = new RecordingFrame();
    drawDedicationPage(own, { ...BASE, authorSignature: { width: 600, height: 200 } });
    const image = own.boxes.filter((b) => b.what === "the author's signature");
    expect(image).toHaveLength(1);
    // Drawn at its own proportions, and the author named under it.
    expect((image[0]!.right - image[0]!.left) / (image[0]!.top - image[0]!.bottom)).toBeCloseTo(3, 5);
    expect(own.texts).toContain('Mira Kapoor');
    expect(own.texts).not.toContain(SIGNED_FOR_THE_AUTHOR);
  });

  it('sets a short message large, and the longest smaller but wrapped to the page, every word kept', () => {
    const short = new RecordingFrame();
    drawDedicationPage(short, { ...BASE, message: ['Happy birthday!', 'With love, Asha'] });
    expect(short.sizes.get('Happy birthday!')).toBeGreaterThanOrEqual(14);
    const long = new RecordingFrame();
    drawDedicationPage(long, { ...BASE, message: LONG_MESSAGE });
    const words = LONG_MESSAGE.join(' ').split(/\s+/);
    const printed = long.texts.join(' ').split(/\s+/);
    for (const word of words) expect(printed).toContain(word);
    const sizes = LONG_MESSAGE.map(
      (line) => long.sizes.get(line.split(' ')[0]!) ?? [...long.sizes].find(([text]) => text.startsWith(line.split(' ')[0]!))?.[1],
    );
    for (const size of sizes) expect(size).toBeGreaterThanOrEqual(9);
  });

  it("prints the copy's number under the date, clear of everything, with the longest message", () => {
    const frame = new RecordingFrame();
    drawDedicationPage(frame, { ...BASE, message: LONG_MESSAGE });
    expect(frame.texts).toContain('Copy No. 37 of the Personas of this book');
    expectClear(frame, 28);
  });

  it('keeps the cryptography off it: no signature, key or hash is printed there', () => {
    const frame = new RecordingFrame();
    drawDedicationPage(frame, { ...BASE, message: ['With love'] });
    expect(frame.texts.join(' ')).not.toMatch(/Ed25519|key |salt|hash/);
  });
});

describe('the colophon', () => {
  const COLOPHON: ColophonText = {
    title: 'The Long Afternoon',
    author: 'Mira Kapoor',
    name: 'अनन्या शर्मा',
    formattedDate: '22 November 2026',
    authorSigned: false,
    record: JSON.stringify({ v: 2, personaId: 'PRS-7K3M-9QXD-2HFA-J8TW', name: 'अनन्या शर्मा', buyerNameHash: 'c'.repeat(64), messageHash: 'd'.repeat(64) }),
    signature: 'A'.repeat(88),
    keyId: '780d3d40ba773887',
    privateDetails: [
      { label: "The giver's name", salt: 'a'.repeat(32), hash: 'c'.repeat(64) },
      { label: 'The message', salt: 'b'.repeat(32), hash: 'd'.repeat(64) },
    ],
    personaId: 'PRS-7K3M-9QXD-2HFA-J8TW',
    verifyUrl: 'https://shop.example/verify/PRS-7K3M-9QXD-2HFA-J8TW',
    copyNo: 37,
  };

  it("prints the signed record, its signature and key, and a gift's salts and hashes, every part clear of the others", () => {
    const frame = new RecordingFrame();
    drawColophonPage(frame, COLOPHON);
    expectClear(frame, 28);
    const all = frame.texts.join('');
    expect(all.replace(/\s/g, '')).toContain(COLOPHON.record.replace(/\s/g, ''));
    expect(all).toContain('A'.repeat(44));
    expect(all).toContain(COLOPHON.keyId);
    // Its number among the book's copies, and that the public log proves it (issue 27).
    expect(frame.texts.join(' ')).toMatch(/copy No\. 37 of the Personas of this book\..*public log/);
    for (const detail of COLOPHON.privateDetails) {
      expect(all).toContain(`salt ${detail.salt}`);
      expect(all.replace(/\s/g, '')).toContain(`hash${detail.hash}`);
    }
  });

  it('says nothing of salts for a Persona bought for oneself', () => {
    const frame = new RecordingFrame();
    drawColophonPage(frame, { ...COLOPHON, privateDetails: [] });
    expectClear(frame, 28);
    expect(frame.texts.join(' ')).not.toMatch(/salt/);
  });
});
