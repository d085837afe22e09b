// Line breaking and page layout of a text source: pure, measured through a callback.
import type { TextStyle } from '../fonts/fallback';
import { CHAPTER_PREFIX, isChapterHeading } from '../persona-print/chapter-heading';

export type Measure = (text: string, style: TextStyle, size: number) => number;

export interface PageGeometry {
  width: number;
  height: number;
  marginLeft: number;
  marginRight: number;
  marginTop: number;
  /** Lowest baseline a body line may sit on. */
  bottomBaseline: number;
}

/** A5 in points, with room at the foot for the folio and the Persona footer. */
export const A5_BOOK: PageGeometry = { width: 420, height: 595, marginLeft: 52, marginRight: 52, marginTop: 62, bottomBaseline: 78 };

export const BODY = { style: 'serif' as TextStyle, size: 10.5, leading: 14.6, indent: 14, paragraphGap: 3 };
export const HEADING = { style: 'serifBold' as TextStyle, size: 17, leading: 22, dropFromTop: 70, gapAfter: 26 };

export interface LaidLine {
  text: string;
  x: number;
  y: number;
  style: TextStyle;
  size: number;
}

export interface LaidPage {
  lines: LaidLine[];
  /** The page opens a chapter (`# ` paragraph). */
  chapterHeading?: string;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Splits a word wider than the measure into pieces that fit, never inside a grapheme cluster. */
function breakLongWord(word: string, maxWidth: number, measure: (text: string) => number): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const { segment } of graphemes.segment(word)) {
    if (piece && measure(piece + segment) > maxWidth) {
      pieces.push(piece);
      piece = segment;
    } else {
      piece += segment;
    }
  }
  if (piece) pieces.push(piece);
  return pieces;
}

/**
 * Greedy line breaking on spaces: each line takes as many words as fit the
 * measure (the first line less its indent). Words wider than a line are cut.
 */
export function breakLines(text: string, maxWidth: number, measure: (text: string) => number, firstLineIndent = 0): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  const spaceWidth = measure(' ');
  let line = '';
  let lineWidth = 0;
  const available = () => maxWidth - (lines.length === 0 ? firstLineIndent : 0);
  for (const word of words) {
    const wordWidth = measure(word);
    if (line && lineWidth + spaceWidth + wordWidth <= available()) {
      line += ` ${word}`;
      lineWidth += spaceWidth + wordWidth;
      continue;
    }
    if (line) lines.push(line);
    if (wordWidth <= available()) {
      line = word;
      lineWidth = wordWidth;
      continue;
    }
    const pieces = breakLongWord(word, available(), measure);
    for (const piece of pieces.slice(0, -1)) lines.push(piece);
    line = pieces[pieces.length - 1];
    lineWidth = measure(line);
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Lays out paragraphs as book pages. `# ` paragraphs are chapter headings: a
 * chapter starts on a new page, under a dropped, centred heading.
 */
export function typesetParagraphs(paragraphs: readonly string[], measure: Measure, geometry: PageGeometry = A5_BOOK): LaidPage[] {
  const pages: LaidPage[] = [];
  const textWidth = geometry.width - geometry.marginLeft - geometry.marginRight;
  const firstBaseline = geometry.height - geometry.marginTop - BODY.size;
  const measureBody = (text: string) => measure(text, BODY.style, BODY.size);
  const measureHeading = (text: string) => measure(text, HEADING.style, HEADING.size);
  let page: LaidPage | undefined;
  let y = 0;
  let indentNext = false;

  const newPage = (): LaidPage => {
    page = { lines: [] };
    pages.push(page);
    y = firstBaseline;
    return page;
  };

  for (const raw of paragraphs) {
    const paragraph = raw.normalize('NFC').trim();
    if (!paragraph) continue;
    if (isChapterHeading(paragraph)) {
      const heading = paragraph.replace(CHAPTER_PREFIX, '').trim();
      const opened = newPage();
      opened.chapterHeading = heading;
      y = geometry.height - geometry.marginTop - HEADING.dropFromTop;
      for (const text of breakLines(heading, textWidth, measureHeading)) {
        const x = geometry.marginLeft + (textWidth - measureHeading(text)) / 2;
        opened.lines.push({ text, x, y, style: HEADING.style, size: HEADING.size });
        y -= HEADING.leading;
      }
      y -= HEADING.gapAfter - HEADING.leading;
      indentNext = false;
      continue;
    }
    const indent = indentNext ? BODY.indent : 0;
    const lines = breakLines(paragraph, textWidth, measureBody, indent);
    lines.forEach((text, index) => {
      let current = page;
      if (!current || y < geometry.bottomBaseline) current = newPage();
      const x = geometry.marginLeft + (index === 0 ? indent : 0);
      current.lines.push({ text, x, y, style: BODY.style, size: BODY.size });
      y -= BODY.leading;
    });
    y -= BODY.paragraphGap;
    indentNext = true;
  }
  return pages;
}
