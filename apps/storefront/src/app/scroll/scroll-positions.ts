// Where each visited page was scrolled to, by history entry, kept across reloads of the tab.
// Pure logic for the router's scroll restoration (use-scroll-restoration.ts).

export type NavigationKind = 'POP' | 'PUSH' | 'REPLACE';
export type ScrollTarget = { kind: 'position'; top: number } | { kind: 'element'; id: string } | { kind: 'none' };

/**
 * What a finished navigation should do with the scroll position. `firstRender` is the page
 * the document opened with: the browser has placed it (at the top), and the reader may already
 * be scrolling it before the app starts, so only a saved position or a named part moves it.
 */
export function scrollTargetFor(kind: NavigationKind, entryKey: string, hash: string, saved: ReadonlyMap<string, number>, firstRender = false): ScrollTarget {
  // Back and forward return where the reader was; a reload is a POP of the same entry.
  if (kind === 'POP') {
    const top = saved.get(entryKey);
    if (top !== undefined) return { kind: 'position', top };
  }
  // A link to a part of a page scrolls to that part.
  if (hash.length > 1) return { kind: 'element', id: decodeURIComponent(hash.slice(1)) };
  // Replacing the address (filters, search terms) keeps the reader where they are.
  if (kind === 'REPLACE' || firstRender) return { kind: 'none' };
  return { kind: 'position', top: 0 };
}

export const STORAGE_KEY = 'persona.scroll-positions';
/** Enough history for any session; the oldest entries go first. */
export const MAX_ENTRIES = 100;

export class ScrollPositions {
  readonly #positions = new Map<string, number>();

  get map(): ReadonlyMap<string, number> {
    return this.#positions;
  }

  set(entryKey: string, top: number): void {
    this.#positions.delete(entryKey);
    this.#positions.set(entryKey, Math.max(0, Math.round(top)));
    while (this.#positions.size > MAX_ENTRIES) this.#positions.delete(this.#positions.keys().next().value!);
  }

  serialize(): string {
    return JSON.stringify([...this.#positions]);
  }

  /** Reads what `serialize` wrote; anything else (a stale or tampered value) is ignored. */
  static parse(text: string | null): ScrollPositions {
    const positions = new ScrollPositions();
    if (!text) return positions;
    try {
      const entries: unknown = JSON.parse(text);
      if (!Array.isArray(entries)) return positions;
      for (const entry of entries) {
        if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number' && Number.isFinite(entry[1]))
          positions.set(entry[0], entry[1]);
      }
    } catch {
      // Unreadable: start afresh.
    }
    return positions;
  }
}
