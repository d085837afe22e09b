// Work done in rounds in the background, from a table that says what is left: each round claims
// what is due (SKIP LOCKED, so several processes may each run rounds) and returns how much it did.
// A round runs every `pollMs`, at once when nudged (after a commit that left work), and never two
// at a time in one process. The mail relay and the payment-webhook inbox are such work.
import type { Logger } from './logger';

export interface BackgroundRounds {
  /** Runs a round now, then one every `pollMs`. */
  start(): void;
  /** Runs a round now, or once the one under way has ended. */
  nudge(): void;
  /** Runs rounds until one finds nothing left, plus one (tests, shutdown); resolves with what they did. */
  drain(): Promise<number>;
  /** Stops the timer and waits for the round under way. */
  stop(): Promise<void>;
}

export function backgroundRounds(round: () => Promise<number>, options: { pollMs: number; logger: Logger; what: string }): BackgroundRounds {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let stopped = false;
  // A nudge during a round: the work it announces may have been committed after the round looked.
  let again = false;

  const run = (): Promise<number> => {
    running ??= round()
      .catch((err) => {
        options.logger.warn({ err }, `${options.what} failed`);
        return 0;
      })
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          void run();
        }
      });
    return running;
  };

  return {
    start() {
      const loop = () => {
        if (stopped) return;
        void run().finally(() => {
          if (!stopped) timer = setTimeout(loop, options.pollMs);
        });
      };
      loop();
    },
    nudge() {
      if (stopped) return;
      if (running) again = true;
      else void run();
    },
    async drain() {
      // Round after round until one finds nothing, then one more: a round already under way when
      // drain was called may have claimed its work before the latest was queued.
      let total = 0;
      for (let done = await run(); done > 0; done = await run()) total += done;
      return total + (await run());
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
