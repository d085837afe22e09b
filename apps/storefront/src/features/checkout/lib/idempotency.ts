// One Idempotency-Key per checkout attempt (DESIGN §6): the same form content keeps its key,
// so a double submit or a retry after closing the pop-up answers the same order; changed
// content gets a new key (the server refuses a reused key with another body: 409).
import { randomUuid } from '@persona/web-kit/random-uuid';

export { randomUuid };

export interface IdempotencyKeys {
  /** The key for this content: the previous one when the content is unchanged, else a new one. */
  keyFor(content: unknown): string;
}

export function createIdempotencyKeys(newKey: () => string = randomUuid): IdempotencyKeys {
  let last: { fingerprint: string; key: string } | null = null;
  return {
    keyFor(content) {
      const fingerprint = canonicalJson(content);
      if (last?.fingerprint !== fingerprint) last = { fingerprint, key: newKey() };
      return last.key;
    },
  };
}

/** JSON with object keys sorted, so the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
