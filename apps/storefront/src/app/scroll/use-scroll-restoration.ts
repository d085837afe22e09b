// The storefront's scroll restoration: a new page starts at the top (or at the part a
// link names), back and forward return where the reader was, also after a reload of
// the tab. The positions are saved per history entry while the reader scrolls.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';
import { ScrollPositions, scrollTargetFor, STORAGE_KEY, type ScrollTarget } from './scroll-positions';

/** Content arrives after the route renders (lazy code, data): keep trying for about a second. */
const MAX_FRAMES = 60;

function readStored(): ScrollPositions {
  try {
    return ScrollPositions.parse(sessionStorage.getItem(STORAGE_KEY));
  } catch {
    return new ScrollPositions();
  }
}

/** Scrolls to the target once the page is tall enough (or the element exists); returns a cancel. */
function scrollWhenReady(target: ScrollTarget): () => void {
  if (target.kind === 'none') return () => {};
  let frame = 0;
  let frames = 0;
  const attempt = () => {
    if (target.kind === 'element') {
      const element = document.getElementById(target.id);
      if (element) return element.scrollIntoView();
    } else {
      // A new page appears where it starts, never smooth-scrolled from the last page's position.
      window.scrollTo({ top: target.top, left: 0, behavior: 'instant' });
      if (Math.abs(window.scrollY - target.top) < 2) return;
    }
    if (++frames < MAX_FRAMES) frame = requestAnimationFrame(attempt);
  };
  // The reader taking over ends the attempts.
  const stop = () => cancel();
  const events = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  const cancel = () => {
    cancelAnimationFrame(frame);
    for (const event of events) window.removeEventListener(event, stop);
  };
  for (const event of events) window.addEventListener(event, stop, { passive: true, once: true });
  attempt();
  return cancel;
}

export function useScrollRestoration(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<ScrollPositions | null>(null);
  positions.current ??= readStored();
  const entryKey = useRef(location.key);
  const firstRender = useRef(true);

  useEffect(() => {
    const store = positions.current!;
    const previous = window.history.scrollRestoration;
    // The browser would restore before the page's content exists; this hook does it instead.
    window.history.scrollRestoration = 'manual';
    let frame = 0;
    const save = () => {
      frame = 0;
      store.set(entryKey.current, window.scrollY);
    };
    const onScroll = () => {
      frame ||= requestAnimationFrame(save);
    };
    const persist = () => {
      store.set(entryKey.current, window.scrollY);
      try {
        sessionStorage.setItem(STORAGE_KEY, store.serialize());
      } catch {
        // Storage full or disabled: positions still work within this page load.
      }
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', persist);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', persist);
      cancelAnimationFrame(frame);
      window.history.scrollRestoration = previous;
    };
  }, []);

  useLayoutEffect(() => {
    entryKey.current = location.key;
    // Scrolling reads the layout: on the document's first page (hydrating it) that would force
    // the whole page's layout inside React's commit, where nothing needs to move.
    const target = scrollTargetFor(navigationType, location.key, location.hash, positions.current!.map, firstRender.current);
    firstRender.current = false;
    return scrollWhenReady(target);
    // Each history entry (its key) is one navigation; hash and type belong to it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key]);
}
