// A server-rendered page paints from its HTML alone; its code (React, the router, the page)
// then makes it interactive. Started before the first paint, that code's evaluation holds the
// paint back on a slow phone (the scripts arrive from cache or a fast network before the
// browser has painted anything); started after it, the reader sees the page at once and
// React hydrates it a frame later.

/** What `afterFirstPaint` needs of the browser (the window in the app, a stand-in in tests). */
export interface PaintClock {
  visibilityState: DocumentVisibilityState;
  hasPainted(): boolean;
  /** Calls `then` once content has been painted; answers a function that stops waiting. */
  onFirstPaint(then: () => void): (() => void) | null;
  later(fn: () => void, ms: number): void;
}

/** A page that paints nothing within this time (or a browser that does not tell) starts anyway. */
export const PAINT_WAIT_MS = 400;

export function browserPaintClock(): PaintClock {
  const paints = typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('paint');
  return {
    visibilityState: document.visibilityState,
    hasPainted: () => paints === true && performance.getEntriesByName('first-contentful-paint').length > 0,
    onFirstPaint(then) {
      if (!paints) return null;
      const observer = new PerformanceObserver((list) => {
        if (list.getEntriesByName('first-contentful-paint').length > 0) then();
      });
      observer.observe({ type: 'paint', buffered: true });
      return () => observer.disconnect();
    },
    later: (fn, ms) => void setTimeout(fn, ms),
  };
}

/** Runs `start` once, in a task after the page's first contentful paint (at once in a hidden tab, which does not paint). */
export function afterFirstPaint(start: () => void, clock: PaintClock = browserPaintClock()): void {
  let started = false;
  let stop: (() => void) | null = null;
  const go = () => {
    if (started) return;
    started = true;
    stop?.();
    start();
  };
  if (clock.visibilityState === 'hidden' || clock.hasPainted()) return go();
  // The paint entry arrives as the frame is presented; the code starts in the task after it.
  stop = clock.onFirstPaint(() => clock.later(go, 0));
  clock.later(go, stop ? PAINT_WAIT_MS : 0);
}
