// Page index with a 300 ms fade between pages (spec §4) and ←/→ keys.
import { useCallback, useEffect, useRef, useState } from 'react';

export const PAGE_TRANSITION_MS = 300;

export function usePageTurner(pageCount: number) {
  const [index, setIndex] = useState(0);
  const [transitioning, setTransitioning] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const busy = useRef(false);

  useEffect(() => () => window.clearTimeout(timer.current), []);
  useEffect(() => {
    setIndex((current) => Math.min(current, Math.max(pageCount - 1, 0)));
  }, [pageCount]);

  const indexRef = useRef(index);
  indexRef.current = index;

  const goTo = useCallback(
    (target: number) => {
      if (busy.current || target < 0 || target >= pageCount) return;
      busy.current = true;
      setTransitioning(true);
      timer.current = window.setTimeout(() => {
        setIndex(target);
        setTransitioning(false);
        busy.current = false;
      }, PAGE_TRANSITION_MS);
    },
    [pageCount],
  );

  /** Straight to a page without the fade (a new layout keeping the reader's place). */
  const jump = useCallback((target: number) => {
    window.clearTimeout(timer.current);
    busy.current = false;
    setTransitioning(false);
    setIndex(target);
  }, []);

  const next = useCallback(() => goTo(indexRef.current + 1), [goTo]);
  const previous = useCallback(() => goTo(indexRef.current - 1), [goTo]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      if (event.key === 'ArrowRight') {
        event.preventDefault();
        next();
      } else if (event.key === 'ArrowLeft') {
        event.preventDefault();
        previous();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [next, previous]);

  return { index, transitioning, next, previous, jump, isFirst: index === 0, isLast: index >= pageCount - 1 };
}
