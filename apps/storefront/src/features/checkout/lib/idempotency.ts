// One Idempotency-Key per checkout attempt (DESIGN §6): the same form content keeps its key,
// so a double submit or a retry after closing the pop-up answers the same order; changed
// content gets a new key (the server refuses a reused key with another body: 409).

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

/** A v4 UUID; crypto.randomUUID exists only in secure contexts, so plain http falls back to getRandomValues. */
export function randomUuid(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
