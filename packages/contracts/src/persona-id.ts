// Persona ids: PRS- and 16 Crockford base32 characters (80 random bits) in
// groups of four, e.g. PRS-7K3M-9QXD-2HFA-J8TW. Typed in any case, with or
// without dashes or spaces, and with the letters Crockford reads as digits.
export const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const PERSONA_ID_PATTERN = '^PRS-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$';
const CANONICAL = new RegExp(PERSONA_ID_PATTERN);

/** Encodes 10 random bytes as a persona id. */
export function formatPersonaId(bytes: Uint8Array): string {
  if (bytes.length !== 10) throw new RangeError('a persona id needs exactly 10 random bytes');
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let chars = '';
  for (let i = 15; i >= 0; i -= 1) chars += CROCKFORD[Number((bits >> BigInt(i * 5)) & 31n)];
  return `PRS-${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}-${chars.slice(12)}`;
}

/** The canonical form of what a person typed, or null when it cannot be a persona id. */
export function normalizePersonaId(input: string): string | null {
  let s = input.toUpperCase().replace(/[\s-]/g, '');
  if (s.startsWith('PRS')) s = s.slice(3);
  s = s.replace(/[IL]/g, '1').replace(/O/g, '0');
  if (!/^[0-9A-HJKMNP-TV-Z]{16}$/.test(s)) return null;
  const id = `PRS-${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8, 12)}-${s.slice(12)}`;
  return CANONICAL.test(id) ? id : null;
}

export function isPersonaId(value: string): boolean {
  return CANONICAL.test(value);
}
