// The mark in a Persona's EPUB: characters that print nothing, written into
// the book's own text so that it survives whatever keeps the text (the
// colophon and the metadata removed, the chapters rewritten by a converter,
// the whole book turned to plain text and back). Frames of mark-code.ts are
// written as one stream of symbols, over and over, through the chapters:
//   WORD JOINER (U+2060) starts a frame, ZERO WIDTH SPACE (U+200B) is a 0,
//   ZERO WIDTH NON-JOINER (U+200C) is a 1.
// The symbols go only where a word has already ended and none begins, so
// that every word and every phrase of words stays whole (an e-reader's search
// for "सूरज उगा" still finds it) and no script's shaping changes:
//   - a slot is a punctuation mark followed by white space, or the end of a
//     paragraph (nothing follows it there, whatever its last character);
//   - every slot carries the same number of symbols, a run of them: one when
//     the book has slots for three frames or more (most books), else as many
//     as it takes, so that even a book of three slots, or one, carries three
//     whole frames (a Hindi book, its sentences ended by "।" and few commas).
// Never between two words: the end of every word would do for capacity, but
// a symbol there splits each phrase it falls in (issue 22, point 4).
// A run is always followed by white space (the end of a paragraph is, once
// the text is read), which tells it from a ZWNJ the text itself uses inside a
// word. What it does not survive: a text retyped, or passed through a filter
// that drops characters that print nothing (README, "The leak mark").
import { frameBits, FRAME_BITS } from './mark-code';

const SYNC = '\u2060';
const BIT = ['\u200B', '\u200C'] as const;
/** Where symbols are written: after a punctuation mark that white space follows, or at a paragraph's end. */
const SLOT = /[.,;:!?।॥؟،؛۔](?=\s)|(?<=\S)$/gu;
/**
 * Symbols as written: a run of them followed by white space (or the end of a paragraph, once trimmed).
 * A run is tried only from its first symbol: tried from each, a long one that a letter ends (an
 * uploaded copy is untrusted) would take time growing with its length squared.
 */
const RUN = /(?<![\u2060\u200B\u200C])[\u2060\u200B\u200C]+(?=\s|$)/gu;
/** Frames a book carries however few slots it has: the reader outvotes a damaged one when three are read. */
const MIN_FRAMES = 3;

/** A paragraph without what it has where a symbol would be read: that is not the text's to keep. */
const unmarked = (paragraph: string) => paragraph.replace(RUN, '');

const slotsIn = (paragraph: string) => unmarked(paragraph).match(SLOT)?.length ?? 0;

/** Symbols each slot carries: as few as give the book MIN_FRAMES whole frames, and at least one. */
function symbolsPerSlot(slots: number, frameLength: number): number {
  return Math.max(1, Math.ceil((MIN_FRAMES * frameLength) / Math.max(1, slots)));
}

/** Writes a mark into a book's paragraphs, in order: one marker per book, its symbols continuing from paragraph to paragraph. */
export function epubMarker(mark: number, paragraphs: readonly string[]): (paragraph: string) => string {
  const symbols = [SYNC, ...frameBits(mark).map((bit) => BIT[bit]!)];
  const perSlot = symbolsPerSlot(
    paragraphs.reduce((n, p) => n + slotsIn(p), 0),
    symbols.length,
  );
  let next = 0;
  const run = () => Array.from({ length: perSlot }, () => symbols[next++ % symbols.length]!).join('');
  return (paragraph) => unmarked(paragraph).replace(SLOT, (found) => `${found}${run()}`);
}

/** The frames written in a text (as many as were read whole; a frame cut short is dropped). */
export function framesInText(text: string): number[][] {
  const frames: number[][] = [];
  let current: number[] | null = null;
  for (const [run] of text.matchAll(RUN)) {
    for (const symbol of run) {
      if (symbol === SYNC) {
        if (current?.length === FRAME_BITS) frames.push(current);
        current = [];
      } else if (current) current.push(symbol === BIT[1] ? 1 : 0);
    }
  }
  if (current?.length === FRAME_BITS) frames.push(current);
  return frames;
}
