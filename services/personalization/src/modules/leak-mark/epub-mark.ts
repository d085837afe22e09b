// The mark in a Persona's EPUB: characters that print nothing, written into
// the book's own text so that it survives whatever keeps the text (the
// colophon and the metadata removed, the chapters rewritten by a converter,
// the whole book turned to plain text and back). Frames of mark-code.ts are
// written one symbol per slot, over and over, through the chapters:
//   WORD JOINER (U+2060) starts a frame, ZERO WIDTH SPACE (U+200B) is a 0,
//   ZERO WIDTH NON-JOINER (U+200C) is a 1.
// A slot is the end of a punctuation mark followed by a space, where no
// search for a phrase looks and no letter can join (so no script's shaping
// changes); a book with too few of them for three frames uses the end of
// every word instead. Each symbol is thus followed by white space, which
// tells it from a ZWNJ the text itself uses inside a word.
// What it does not survive: a text retyped, or passed through a filter that
// drops characters that print nothing (README, "The leak mark").
import { FRAME_BITS, frameBits } from './mark-code';

const SYNC = '\u2060';
const BIT = ['\u200B', '\u200C'] as const;
const PUNCTUATION_SLOT = /[.,;:!?।॥؟،](?=\s)/gu;
const WORD_SLOT = /[^\s\u2060\u200B\u200C](?=\s)/gu;
/** A symbol as written: followed by white space (or the end of a paragraph, once trimmed). */
const SYMBOL = /[\u2060\u200B\u200C](?=\s|$)/gu;

/** Writes a mark into a book's paragraphs, in order: one marker per book, its symbols continuing from paragraph to paragraph. */
export function epubMarker(mark: number, paragraphs: readonly string[]): (paragraph: string) => string {
  const symbols = [SYNC, ...frameBits(mark).map((bit) => BIT[bit]!)];
  const enough = paragraphs.reduce((n, p) => n + (p.match(PUNCTUATION_SLOT)?.length ?? 0), 0) >= 3 * symbols.length;
  const slot = enough ? PUNCTUATION_SLOT : WORD_SLOT;
  let next = 0;
  return (paragraph) =>
    paragraph
      // What the text itself has where a symbol would be read is not ours to keep.
      .replace(SYMBOL, '')
      .replace(slot, (found) => `${found}${symbols[next++ % symbols.length]}`);
}

/** The frames written in a text (as many as were read whole; a frame cut short is dropped). */
export function framesInText(text: string): number[][] {
  const frames: number[][] = [];
  let current: number[] | null = null;
  for (const [symbol] of text.matchAll(SYMBOL)) {
    if (symbol === SYNC) {
      if (current?.length === FRAME_BITS) frames.push(current);
      current = [];
    } else if (current) current.push(symbol === BIT[1] ? 1 : 0);
  }
  if (current?.length === FRAME_BITS) frames.push(current);
  return frames;
}
