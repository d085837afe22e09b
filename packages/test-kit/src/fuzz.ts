// Inputs for the fuzz tests of every reader of untrusted bytes (issue 21): seeds (real files and
// known bombs) mutated the ways files get damaged or crafted (bit flips, overwritten, inserted
// and deleted runs, truncation, a run copied elsewhere), and bytes from nothing. fast-check
// shrinks a failing input and prints its seed; FUZZ_RUNS sets how many inputs a property sees.
import fc from 'fast-check';

/** Inputs each fuzz property sees (FUZZ_RUNS), `fallback` unless set. */
export function fuzzRuns(fallback: number): number {
  const runs = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(runs) && runs > 0 ? runs : fallback;
}

export type Edit =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; bytes: Uint8Array }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'copy'; from: number; to: number; length: number };

/** Where in a file an edit falls, as a fraction of its length: spread evenly (fast-check's numbers lean to the edges, which would edit the first byte again and again). */
const position = fc.noBias(fc.integer({ min: 0, max: 0xffffffff })).map((n) => n / 0x100000000);
const chunk = fc.uint8Array({ minLength: 1, maxLength: 32 });

/** Small damage mostly; a cut-off end now and then (most readers stop at once on one). */
export const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('flip' as const), at: position, bit: fc.integer({ min: 0, max: 7 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('set' as const), at: position, bytes: chunk }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: position, bytes: chunk }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: position, length: fc.integer({ min: 1, max: 64 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: position }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('copy' as const), from: position, to: position, length: fc.integer({ min: 1, max: 256 }) }) },
);

/** `seed` with the edits applied (positions are fractions of the length at the time). */
export function mutate(seed: Uint8Array, edits: readonly Edit[]): Buffer {
  let bytes = Buffer.from(seed);
  const at = (f: number) => Math.min(bytes.length, Math.floor(f * bytes.length));
  for (const e of edits) {
    if (e.kind === 'flip' && bytes.length > 0) bytes[Math.min(bytes.length - 1, at(e.at))]! ^= 1 << e.bit;
    else if (e.kind === 'set') bytes.set(e.bytes.subarray(0, Math.max(0, bytes.length - at(e.at))), at(e.at));
    else if (e.kind === 'insert') bytes = Buffer.concat([bytes.subarray(0, at(e.at)), e.bytes, bytes.subarray(at(e.at))]);
    else if (e.kind === 'delete') bytes = Buffer.concat([bytes.subarray(0, at(e.at)), bytes.subarray(at(e.at) + e.length)]);
    else if (e.kind === 'truncate') bytes = bytes.subarray(0, at(e.at));
    else if (e.kind === 'copy') {
      const from = at(e.from);
      const piece = Buffer.from(bytes.subarray(from, from + e.length));
      bytes = Buffer.concat([bytes.subarray(0, at(e.to)), piece, bytes.subarray(at(e.to))]);
    }
  }
  return bytes;
}

/** The seeds mutated (mostly), or bytes from nothing (now and then). */
export function mutatedBytes(seeds: readonly Uint8Array[], { maxEdits = 4, fromNothing = 1 } = {}): fc.Arbitrary<Buffer> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.tuple(fc.constantFrom(...seeds), fc.array(edit, { minLength: 1, maxLength: maxEdits })).map(([seed, edits]) => mutate(seed, edits)),
    },
    { weight: fromNothing, arbitrary: fc.uint8Array({ maxLength: 4096 }).map((b) => Buffer.from(b)) },
  );
}
