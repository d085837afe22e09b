/**
 * Turns a book's sample into the reader's screens.
 *
 * Sources (spec §2): a newline-separated string, where each non-empty trimmed
 * line is one excerpt, or a list of {chapter, content, isAd} pages. The text is
 * not shown an excerpt a page (a short one would leave most of a screen empty):
 * it flows into pages that fit the screen (paginate.ts), each excerpt under its
 * heading.
 *
 * The ad rule (spec §9 "an advertising placeholder page after every 3 sample
 * pages"), made precise on those pages:
 *   - The shop's ad slot follows every 3rd page of text counted since the
 *     start or since the last ad of either kind.
 *   - It is only inserted when another page follows: the sample never ends on
 *     an inserted ad (7 reading pages → C C C Ad C C C Ad C; 6 → C C C Ad C C C).
 *   - A page the source itself flags as an ad counts as that break: the count
 *     restarts after it, and no placeholder is put right before it, so two ads
 *     never stand next to each other because of the rule.
 */
import type { SamplePage } from '@persona/contracts';
import { paginateFlow, wordsOn, type FlowBlock, type Fits } from './paginate';

export const AD_PLACEHOLDER_CHAPTER = 'Advertisement';
export const READING_PAGES_PER_AD = 3;

export interface ReaderPage {
  chapter: string;
  content: string;
  isAd: boolean;
}

type SampleSource = string | readonly SamplePage[] | null | undefined;

/** The sample's own excerpts and ad pages. Blank lines and blank pages are skipped. */
export function samplePages(sample: SampleSource): ReaderPage[] {
  if (typeof sample === 'string') {
    return sample
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line.length > 0)
      .map((content, index) => ({ chapter: `Excerpt ${index + 1}`, content, isAd: false }));
  }
  if (!Array.isArray(sample)) return [];
  const pages: ReaderPage[] = [];
  let reading = 0;
  for (const entry of sample) {
    if (!entry || typeof entry.content !== 'string') continue;
    const content = entry.content.trim();
    if (!content) continue;
    const isAd = entry.isAd === true;
    if (!isAd) reading += 1;
    const chapter = typeof entry.chapter === 'string' && entry.chapter.trim() ? entry.chapter.trim() : isAd ? AD_PLACEHOLDER_CHAPTER : `Excerpt ${reading}`;
    pages.push({ chapter, content, isAd });
  }
  return pages;
}

/** A screen of the reader: a page of text, an ad page (the book's own, or the shop's slot), or the end of the sample. */
export type ReaderScreen =
  { kind: 'text'; blocks: FlowBlock[] } | { kind: 'ad'; inserted: false; chapter: string; content: string } | { kind: 'ad'; inserted: true } | { kind: 'end' };

/** The sample as the reader flows it: runs of text (each excerpt's heading and paragraphs) between the book's own ad pages. */
function sampleFlows(sample: SampleSource): Array<{ kind: 'text'; blocks: FlowBlock[] } | { kind: 'ad'; chapter: string; content: string }> {
  const parts: Array<{ kind: 'text'; blocks: FlowBlock[] } | { kind: 'ad'; chapter: string; content: string }> = [];
  for (const page of samplePages(sample)) {
    if (page.isAd) {
      parts.push({ kind: 'ad', chapter: page.chapter, content: page.content });
      continue;
    }
    let flow = parts.at(-1);
    if (flow?.kind !== 'text') parts.push((flow = { kind: 'text', blocks: [] }));
    // Pages of one chapter run on under one heading.
    if (flow.blocks.findLast((block) => block.kind === 'heading')?.text !== page.chapter) flow.blocks.push({ kind: 'heading', text: page.chapter });
    for (const text of page.content.split(/\n{2,}/)) {
      if (text.trim()) flow.blocks.push({ kind: 'paragraph', text: text.trim(), continued: false, split: false });
    }
  }
  return parts;
}

/**
 * The reader's screens: the text flowed into pages that fit (`fits`), the book's own ad pages
 * where they stand, the shop's ad slot after every third page of text (the rule above), and
 * the end of the sample last.
 */
export function readerScreens(sample: SampleSource, fits: Fits): ReaderScreen[] {
  const source = sampleFlows(sample).flatMap((part): ReaderScreen[] =>
    part.kind === 'ad'
      ? [{ kind: 'ad' as const, inserted: false as const, chapter: part.chapter, content: part.content }]
      : paginateFlow(part.blocks, fits).map((blocks) => ({ kind: 'text' as const, blocks })),
  );
  return [
    ...interleaveAds(
      source,
      (screen) => screen.kind === 'ad',
      (): ReaderScreen => ({ kind: 'ad', inserted: true }),
    ),
    { kind: 'end' },
  ];
}

/** Puts `makeAd()` after every READING_PAGES_PER_AD reading pages (counted since the start or the last ad), never last. */
function interleaveAds<T>(source: readonly T[], isAd: (page: T) => boolean, makeAd: () => T): T[] {
  const pages: T[] = [];
  let sinceLastAd = 0;
  source.forEach((page, index) => {
    pages.push(page);
    if (isAd(page)) {
      sinceLastAd = 0;
      return;
    }
    sinceLastAd += 1;
    const next = source[index + 1];
    if (sinceLastAd === READING_PAGES_PER_AD && next !== undefined && !isAd(next)) {
      pages.push(makeAd());
      sinceLastAd = 0;
    }
  });
  return pages;
}

/** How many words of the sample come before screen `index`: a place that outlives a new layout. */
export function wordsBefore(screens: readonly ReaderScreen[], index: number): number {
  return screens.slice(0, index).reduce((n, screen) => n + (screen.kind === 'text' ? wordsOn(screen.blocks) : 0), 0);
}

/** The screen showing the word at `offset` (after a new layout: the page the reader was on). */
export function screenAtWord(screens: readonly ReaderScreen[], offset: number): number {
  let before = 0;
  for (let i = 0; i < screens.length; i += 1) {
    const screen = screens[i]!;
    if (screen.kind !== 'text') continue;
    const words = wordsOn(screen.blocks);
    if (offset < before + words) return i;
    before += words;
  }
  // Past the last word: the reader was at the end of the sample.
  return offset > 0 ? screens.length - 1 : 0;
}

/** True when the sample holds at least one page a visitor can read. */
export function hasReadableSample(sample: SampleSource): boolean {
  return samplePages(sample).some((page) => !page.isAd);
}
