// Lays the sample out for the reader's screen: the text is flowed into pages by measuring it in
// a hidden probe of the page's width (the same classes as a shown page), against the page's
// height. Again whenever the page changes size (a phone turned, a window resized, the fonts
// arrived), keeping the reader on the page that shows the word they were at. Before the first
// measure (and on the server) the text simply runs from the start, cut at the page's foot.
import { useLayoutEffect, useRef, useState } from 'react';
import type { Book } from '@persona/contracts';
import type { FlowBlock } from '../lib/paginate';
import { readerScreens, screenAtWord, wordsBefore, type ReaderScreen } from '../lib/reader-pages';
import { usePageTurner } from './use-page-turner';

/** A paragraph's classes: one going on over the page ends at the page's foot (no gap after it); its rest starts flush at the top of the next. */
export function blockClass(block: FlowBlock): string | undefined {
  if (block.kind !== 'paragraph') return undefined;
  const classes = [block.continued ? 'reader__para--continued' : '', block.split ? 'reader__para--split' : ''].filter(Boolean);
  return classes.length > 0 ? classes.join(' ') : undefined;
}

/** The probe holds what a page of these blocks would (TextBlocks' markup, built without React: hundreds of measures). */
function fillProbe(probe: HTMLElement, blocks: readonly FlowBlock[]): void {
  probe.replaceChildren(
    ...blocks.map((block) => {
      const element = document.createElement(block.kind === 'heading' ? 'h2' : 'p');
      element.textContent = block.text;
      const className = block.kind === 'heading' ? 'reader__chapter' : blockClass(block);
      if (className) element.className = className;
      return element;
    }),
  );
}

export function useReaderLayout(sample: Book['sampleContent']) {
  const pageRef = useRef<HTMLDivElement>(null);
  const probeRef = useRef<HTMLDivElement>(null);
  const [layout, setLayout] = useState<{ screens: ReaderScreen[]; measured: boolean }>(() => ({ screens: readerScreens(sample, () => true), measured: false }));
  const turner = usePageTurner(layout.screens.length);
  // Where the reader is, in words of the sample: what a new layout keeps.
  const place = useRef(0);
  place.current = wordsBefore(layout.screens, turner.index);
  const jump = useRef(turner.jump);
  jump.current = turner.jump;

  useLayoutEffect(() => {
    const page = pageRef.current;
    const probe = probeRef.current;
    if (!page || !probe) return undefined;
    let frame = 0;
    let laidOutFor = '';
    const measure = () => {
      const size = `${page.clientWidth}×${page.clientHeight}`;
      if (size === laidOutFor || page.clientHeight === 0) return;
      laidOutFor = size;
      const height = page.clientHeight;
      const screens = readerScreens(sample, (blocks) => {
        fillProbe(probe, blocks);
        return probe.scrollHeight <= height;
      });
      probe.replaceChildren();
      const at = screenAtWord(screens, place.current);
      setLayout({ screens, measured: true });
      jump.current(at);
    };
    measure();
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(measure);
    });
    observer.observe(page);
    // Text measured in a fallback font would not fit once the real one is drawn.
    void document.fonts?.ready.then(() => {
      laidOutFor = '';
      measure();
    });
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [sample]);

  return { screens: layout.screens, measured: layout.measured, pageRef, probeRef, turner };
}
