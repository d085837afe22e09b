// The header's admin button label: the stored admin's name, else e-mail, else "Admin" (spec §2).
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
