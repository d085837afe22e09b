// The admin session kept in the browser (spec §3): the token under "token" and the admin's
// {name, email} under "admin", read by the admin app's guard and by both apps' header label.
import { TOKEN_STORAGE_KEY, storedToken } from './api-client';

export const ADMIN_STORAGE_KEY = 'admin';
export const ADMIN_FALLBACK_LABEL = 'Admin';

/** Reads the raw `admin` value defensively: bad JSON, wrong types or blanks fall back. */
export function adminLabelFrom(raw: string | null | undefined): string {
  if (!raw) return ADMIN_FALLBACK_LABEL;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return ADMIN_FALLBACK_LABEL;
  }
  if (typeof parsed !== 'object' || parsed === null) return ADMIN_FALLBACK_LABEL;
  const { name, email } = parsed as { name?: unknown; email?: unknown };
  if (typeof name === 'string' && name.trim()) return name.trim();
  if (typeof email === 'string' && email.trim()) return email.trim();
  return ADMIN_FALLBACK_LABEL;
}

export function readAdminLabel(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): string {
  try {
    return adminLabelFrom(storage?.getItem(ADMIN_STORAGE_KEY));
  } catch {
    return ADMIN_FALLBACK_LABEL;
  }
}

export interface AdminProfile {
  name: string;
  email: string;
}

type SessionStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function browserStorage(): SessionStorage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/** Stores what a successful login answered. */
export function saveAdminSession(token: string, admin: AdminProfile, storage: SessionStorage | undefined = browserStorage()): void {
  storage?.setItem(TOKEN_STORAGE_KEY, token);
  storage?.setItem(ADMIN_STORAGE_KEY, JSON.stringify({ name: admin.name, email: admin.email }));
}

/** Forgets the session (logout, or a token the server no longer accepts). */
export function clearAdminSession(storage: SessionStorage | undefined = browserStorage()): void {
  storage?.removeItem(TOKEN_STORAGE_KEY);
  storage?.removeItem(ADMIN_STORAGE_KEY);
}

/** The guard's question (spec §4): is there a stored token? The server judges whether it is valid. */
export function hasAdminToken(): boolean {
  return storedToken() !== null;
}
