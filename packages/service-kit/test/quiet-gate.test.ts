import { quietGate } from '../src/quiet-gate';

describe('quietGate', () => {
  let clock = 0;
  const now = () => clock;

  beforeEach(() => {
    jest.useFakeTimers();
    clock = 1000;
  });
  afterEach(() => jest.useRealTimers());

  /** Moves the gate's clock and the timers on together, `step` ms at a time. */
  async function advance(ms: number, step = 5, during?: () => void) {
    for (let left = ms; left > 0; left -= step) {
      clock += step;
      during?.();
      await jest.advanceTimersByTimeAsync(step);
    }
  }

  /** Whether the promise has settled (after the microtasks queued so far). */
  async function settled(p: Promise<void>) {
    let done = false;
    void p.then(() => (done = true));
    await jest.advanceTimersByTimeAsync(0);
    return done;
  }

  it('lets the work through at once when no request came', async () => {
    const gate = quietGate({ quietMs: 20, now });
    expect(await settled(gate.whenQuiet())).toBe(true);
  });

  it('holds the work while requests arrive, and lets it through once they stop for quietMs', async () => {
    const gate = quietGate({ quietMs: 20, maxDeferMs: 1000, now });
    gate.arrived();
    const waiting = gate.whenQuiet();
    expect(await settled(waiting)).toBe(false);
    await advance(10);
    expect(await settled(waiting)).toBe(false);
    await advance(15);
    expect(await settled(waiting)).toBe(true);
  });

  it('under a steady flood, gives the work a turn of shareMs after each maxDeferMs of waiting', async () => {
    const gate = quietGate({ quietMs: 20, maxDeferMs: 200, shareMs: 50, now });
    const flood = () => gate.arrived(); // a request every 5 ms
    flood();
    const first = gate.whenQuiet();
    await advance(190, 5, flood);
    expect(await settled(first)).toBe(false);
    await advance(15, 5, flood);
    expect(await settled(first)).toBe(true);
    // Its turn: the next steps pass at once while the flood goes on…
    flood();
    expect(await settled(gate.whenQuiet())).toBe(true);
    await advance(40, 5, flood);
    expect(await settled(gate.whenQuiet())).toBe(true);
    // …until the turn is over: then it waits again.
    await advance(15, 5, flood);
    const again = gate.whenQuiet();
    expect(await settled(again)).toBe(false);
    await advance(100, 5, flood);
    expect(await settled(again)).toBe(false);
    await advance(110, 5, flood);
    expect(await settled(again)).toBe(true);
  });
});
