/**
 * Flows the sample's text into pages that each hold as much as fits the reader's screen.
 *
 * The text is a run of blocks (excerpt headings and paragraphs). Blocks go onto a page while
 * `fits` says the page still holds them; a paragraph that does not fit is split between two
 * words (the largest part that fits stays, found by halving), and a heading never ends a page
 * without the first words of what follows it. `fits` is the only thing that knows about the
 * screen: the reader measures in the browser, tests count characters.
 */
export type FlowBlock =
  | { kind: 'heading'; text: string }
  | {
      kind: 'paragraph';
      text: string;
      /** The paragraph began on the page before. */
      continued: boolean;
      /** The paragraph goes on on the next page. */
      split: boolean;
    };

export type Fits = (page: readonly FlowBlock[]) => boolean;

/** How many words of the next paragraph a heading needs below it to stay on its page. */
const KEEP_WITH_HEADING_WORDS = 5;

const paragraph = (words: readonly string[], continued: boolean, split: boolean): FlowBlock => ({ kind: 'paragraph', text: words.join(' '), continued, split });

export function paginateFlow(blocks: readonly FlowBlock[], fits: Fits): FlowBlock[][] {
  const pages: FlowBlock[][] = [];
  let page: FlowBlock[] = [];
  const close = () => {
    if (page.length > 0) pages.push(page);
    page = [];
  };

  blocks.forEach((block, i) => {
    if (block.kind === 'heading') {
      const next = blocks[i + 1];
      const withStart = next?.kind === 'paragraph' ? [block, paragraph(next.text.split(/\s+/).slice(0, KEEP_WITH_HEADING_WORDS), false, true)] : [block];
      if (page.length > 0 && !fits([...page, ...withStart])) close();
      page.push(block);
      return;
    }
    let words = block.text.split(/\s+/).filter(Boolean);
    let continued = block.continued;
    while (words.length > 0) {
      if (fits([...page, paragraph(words, continued, false)])) {
        page.push(paragraph(words, continued, false));
        return;
      }
      // The most words that fit (fewer than all): halving between what fits and what does not.
      let low = 0;
      let high = words.length - 1;
      while (low < high) {
        const mid = Math.ceil((low + high) / 2);
        if (fits([...page, paragraph(words.slice(0, mid), continued, true)])) low = mid;
        else high = mid - 1;
      }
      // On an empty page a word goes even when it alone does not fit: the reading must go on.
      const take = low === 0 && page.length === 0 ? 1 : low;
      if (take > 0) {
        page.push(paragraph(words.slice(0, take), continued, take < words.length));
        continued = true;
        words = words.slice(take);
      }
      close();
    }
  });
  close();
  return pages;
}

/** The number of words of text on a page (headings included): where in the sample a page starts. */
export function wordsOn(page: readonly FlowBlock[]): number {
  return page.reduce((n, block) => n + block.text.split(/\s+/).filter(Boolean).length, 0);
}
