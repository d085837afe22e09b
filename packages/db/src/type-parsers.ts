// pg hands back int8 (count(*), bigint ids) and numeric as strings; PGlite
// hands back int8 as a number. Both drivers are given the same parsers so a
// row looks the same whichever database produced it.
export const PG_OID = { INT8: 20, NUMERIC: 1700 } as const;

export function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${value} is outside the safe integer range`);
  return n;
}

export function parseNumeric(value: string): number {
  return Number(value);
}
