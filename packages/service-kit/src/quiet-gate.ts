// Background work that gives way to requests. A route that must answer fast (Razorpay's webhooks:
// it retries, and at last disables, a webhook slow to answer) says each time one arrives; the work
// it leaves behind (paying the orders, and all that follows) asks before each step and waits while
// requests keep coming. It never waits for ever: after `maxDeferMs` of giving way it takes
// `shareMs` for itself, then gives way again, so a steady flood slows the work but cannot stop it.
//
// Measured on the `webhooks` bench (50 deliveries at once, 2 cores): with the inbox working beside
// the route its p99 read 396–534 ms; giving way (and the PDF threads niced), 228–296 ms
// (bench/README.md).

export interface QuietGateOptions {
  /** A request within this long means busy, ms. */
  quietMs?: number;
  /** The longest the work waits in a row, ms. */
  maxDeferMs?: number;
  /** How long the work then runs before it gives way again, ms. */
  shareMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

export interface QuietGate {
  /** A request arrived. */
  arrived(): void;
  /** Resolves when the work may take its next step: no request for `quietMs`, or its turn has come. */
  whenQuiet(): Promise<void>;
}

export function quietGate({ quietMs = 20, maxDeferMs = 1000, shareMs = 100, now = () => performance.now() }: QuietGateOptions = {}): QuietGate {
  let lastArrival = -Infinity;
  /** When the work began to wait (it has waited since), or null while it is not waiting. */
  let waitingSince: number | null = null;
  /** The end of the work's own turn, taken after waiting maxDeferMs. */
  let turnUntil = -Infinity;

  return {
    arrived() {
      lastArrival = now();
    },
    async whenQuiet() {
      for (;;) {
        const t = now();
        if (t - lastArrival >= quietMs || t < turnUntil) {
          waitingSince = null;
          return;
        }
        waitingSince ??= t;
        if (t - waitingSince >= maxDeferMs) {
          turnUntil = t + shareMs;
          waitingSince = null;
          return;
        }
        await new Promise<void>((resolve) => setTimeout(resolve, Math.min(quietMs - (t - lastArrival), maxDeferMs - (t - waitingSince!))).unref?.());
      }
    },
  };
}
