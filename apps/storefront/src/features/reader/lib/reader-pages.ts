/**
 * Turns a book's sample into the reader's pages.
 *
 * Sources (spec §2): a newline-separated string, where each non-empty trimmed
 * line is one page, or a list of {chapter, content, isAd} pages.
 *
 * The ad rule (spec §9 "an advertising placeholder page after every 3 sample
 * pages"), made precise:
 *   - A placeholder ad page follows every 3rd reading page counted since the
 *     start or since the last ad of either kind.
 *   - It is only inserted when another page follows: the sample never ends on
 *     an inserted ad (7 reading pages → C C C Ad C C C Ad C; 6 → C C C Ad C C C).
 *   - A page the source itself flags as an ad counts as that break: the count
 *     restarts after it, and no placeholder is put right before it, so two ads
 *     never stand next to each other because of the rule.
 */
import type { SamplePage } from '@persona/contracts';

export const AD_PLACEHOLDER_TEXT = 'This is a test Ad. Replace with real AdSense code after approval.';
export const AD_PLACEHOLDER_CHAPTER = 'Advertisement';
export const READING_PAGES_PER_AD = 3;

export interface ReaderPage {
  chapter: string;
  content: string;
  isAd: boolean;
  /** True for the placeholder pages the reader inserts (not part of the book's sample). */
  inserted: boolean;
}

type SampleSource = string | readonly SamplePage[] | null | undefined;

/** The sample's own pages, before any ad is inserted. Blank lines and blank pages are skipped. */
export function samplePages(sample: SampleSource): ReaderPage[] {
  if (typeof sample === 'string') {
    return sample
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line.length > 0)
      .map((content, index) => ({ chapter: `Excerpt ${index + 1}`, content, isAd: false, inserted: false }));
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
    pages.push({ chapter, content, isAd, inserted: false });
  }
  return pages;
}

function placeholderAd(): ReaderPage {
  return { chapter: AD_PLACEHOLDER_CHAPTER, content: AD_PLACEHOLDER_TEXT, isAd: true, inserted: true };
}

/** The pages the reader shows, one at a time, with the placeholder ads interleaved. */
export function buildReaderPages(sample: SampleSource): ReaderPage[] {
  const source = samplePages(sample);
  const pages: ReaderPage[] = [];
  let sinceLastAd = 0;
  source.forEach((page, index) => {
    pages.push(page);
    if (page.isAd) {
      sinceLastAd = 0;
      return;
    }
    sinceLastAd += 1;
    const next = source[index + 1];
    if (sinceLastAd === READING_PAGES_PER_AD && next && !next.isAd) {
      pages.push(placeholderAd());
      sinceLastAd = 0;
    }
  });
  return pages;
}

/** True when the sample holds at least one page a visitor can read. */
export function hasReadableSample(sample: SampleSource): boolean {
  return samplePages(sample).some((page) => !page.isAd);
}
