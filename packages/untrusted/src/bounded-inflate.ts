// Inflates a deflate stream (zlib-wrapped or raw) while counting every byte it
// produces against a budget, stopping the moment a limit is passed.
//
// Why fflate's streaming inflater rather than node:zlib: zlib's synchronous
// call produces the whole output before it can be judged (a 50 KB stream
// holds 50 MB of output in memory first), and its asynchronous streams run on
// libuv's shared thread pool, which a worker's `terminate()` cannot stop and
// which the event loop's own file reads queue behind. fflate runs on the
// calling thread, hands the output over in pieces (kept only when asked for)
// and is stopped by a throw from its callback. Measured here: ~220 MB/s, the
// memory it holds bounded by one piece.
import { Inflate, Unzlib } from 'fflate';
import type { BudgetMeter } from './budget';

/** Compressed bytes handed to the inflater at a time: at most ~1032 times as much comes out of each. */
const PIECE = 4096;
/** How far past a limit a reading can go before it stops: one piece's output (deflate's best ratio is 1,032:1). */
export const OVERSHOOT_BYTES = PIECE * 1032;

export interface InflateOptions {
  /** Raw deflate (ZIP entries) rather than zlib-wrapped (PDF FlateDecode). */
  raw?: boolean;
  /** Keep and return the output (default: count it and let it go). */
  keep?: boolean;
  /** Stop quietly once this many bytes are out (a decoder that needs no more), without refusing. */
  enough?: number;
}

export interface Inflated {
  /** The output when `keep`, else empty. */
  data: Uint8Array;
  /** Bytes produced (up to where it stopped). */
  produced: number;
  /** False when the stream was cut short or damaged: what came out before that is counted and kept, as viewers do. */
  complete: boolean;
}

class Enough extends Error {}

export function inflateCounted(input: Uint8Array, meter: BudgetMeter, options: InflateOptions = {}): Inflated {
  const pieces: Uint8Array[] = [];
  let produced = 0;
  const ondata = (chunk: Uint8Array) => {
    produced += chunk.length;
    meter.produced(chunk.length, produced);
    if (options.keep) pieces.push(chunk);
    if (options.enough !== undefined && produced >= options.enough) throw new Enough();
  };
  const inflater = options.raw ? new Inflate(ondata) : new Unzlib(ondata);
  let complete = true;
  try {
    if (input.length === 0) inflater.push(input, true);
    for (let at = 0; at < input.length; at += PIECE) inflater.push(input.subarray(at, at + PIECE), at + PIECE >= input.length);
  } catch (err) {
    if (err instanceof Enough) complete = true;
    else if (isInflateError(err)) complete = false;
    else throw err;
  }
  return { data: options.keep ? join(pieces, produced) : new Uint8Array(0), produced, complete };
}

/** fflate's own errors (bad data, a cut-short stream) carry a numeric `code`; a budget refusal does not. */
function isInflateError(err: unknown): boolean {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'number';
}

function join(pieces: Uint8Array[], length: number): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
