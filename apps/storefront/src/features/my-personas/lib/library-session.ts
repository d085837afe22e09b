// Where the library's token comes from and where its session is kept. The e-mailed link carries
// the token in the address's fragment (#token=…), which no request, log or referrer carries; the
// page takes it out of the address at once. The session the link opens is kept in this tab only
// (sessionStorage), so a reload keeps the library open until the session ends.
const FRAGMENT = /^#token=([A-Za-z0-9_-]{20,100})$/;
const KEY = 'persona.library';

/** The token of an e-mailed link in the address's fragment, or null. */
export function tokenFromFragment(hash: string): string | null {
  return FRAGMENT.exec(hash)?.[1] ?? null;
}

export interface StoredSession {
  token: string;
  expiresAt: string;
}

export function readSession(storage: Pick<Storage, 'getItem'>, now = Date.now()): StoredSession | null {
  try {
    const value = JSON.parse(storage.getItem(KEY) ?? 'null') as StoredSession | null;
    return value && typeof value.token === 'string' && Date.parse(value.expiresAt) > now ? value : null;
  } catch {
    return null;
  }
}

export function saveSession(storage: Pick<Storage, 'setItem'>, session: StoredSession): void {
  storage.setItem(KEY, JSON.stringify(session));
}

export function forgetSession(storage: Pick<Storage, 'removeItem'>): void {
  storage.removeItem(KEY);
}
