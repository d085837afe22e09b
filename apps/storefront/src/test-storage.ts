// An in-memory stand-in for the browser's localStorage / sessionStorage in unit tests: the three
// methods the drafts use, and the map itself (`items`) for a test to look into.
export function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    items,
  };
}

/** Storage that refuses every read and write, as a browser does when storage is blocked or full. */
export function brokenStorage() {
  return {
    getItem: (): string | null => {
      throw new Error('SecurityError');
    },
    setItem: (): void => {
      throw new Error('QuotaExceededError');
    },
    removeItem: (): void => {
      throw new Error('SecurityError');
    },
  };
}
