/**
 * Collapses whitespace and cuts to at most `max` characters; a cut text ends
 * with "…" inside the limit, so the result never exceeds `max` (spec §9: 150).
 */
export function truncateText(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  if (max <= 1) return clean.slice(0, max);
  return `${clean.slice(0, max - 1).trimEnd()}…`;
}

export const META_DESCRIPTION_MAX = 150;
export const SAMPLE_QUOTE_MAX = 150;
