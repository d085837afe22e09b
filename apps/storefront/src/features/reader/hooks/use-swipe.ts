// A swipe on a touch screen turns the page: right to left for the next, left to right for the
// previous. Pointer events (touch and pen; a mouse drag selects text instead); the reader's main
// area lets the browser pan only vertically (touch-action: pan-y), so sideways moves reach us.
import { useRef, type PointerEvent } from 'react';

export const SWIPE_MIN_PX = 50;
export const SWIPE_MAX_MS = 800;

/** What a finger's move means: a page turn when it went far enough, mostly sideways and quickly. */
export function swipeDirection(dx: number, dy: number, ms: number): 'next' | 'previous' | null {
  if (ms > SWIPE_MAX_MS || Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < 1.5 * Math.abs(dy)) return null;
  return dx < 0 ? 'next' : 'previous';
}

export function useSwipe({ onNext, onPrevious }: { onNext: () => void; onPrevious: () => void }) {
  const start = useRef<{ x: number; y: number; at: number; id: number } | null>(null);
  return {
    onPointerDown(event: PointerEvent) {
      start.current = event.pointerType === 'mouse' ? null : { x: event.clientX, y: event.clientY, at: event.timeStamp, id: event.pointerId };
    },
    onPointerUp(event: PointerEvent) {
      const from = start.current;
      start.current = null;
      if (!from || from.id !== event.pointerId) return;
      const direction = swipeDirection(event.clientX - from.x, event.clientY - from.y, event.timeStamp - from.at);
      if (direction === 'next') onNext();
      else if (direction === 'previous') onPrevious();
    },
    onPointerCancel() {
      start.current = null;
    },
  };
}
