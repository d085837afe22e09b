import { afterFirstPaint, PAINT_WAIT_MS, type PaintClock } from './after-first-paint';

/** A clock the test drives: timers run when `tick` says, the paint when `paint` says. */
function fakeClock(options: { hidden?: boolean; painted?: boolean; tellsPaints?: boolean } = {}) {
  const timers: { fn: () => void; ms: number }[] = [];
  let onPaint: (() => void) | null = null;
  let stopped = false;
  const clock: PaintClock = {
    visibilityState: options.hidden ? 'hidden' : 'visible',
    hasPainted: () => options.painted ?? false,
    onFirstPaint(then) {
      if (options.tellsPaints === false) return null;
      onPaint = then;
      return () => {
        stopped = true;
      };
    },
    later: (fn, ms) => void timers.push({ fn, ms }),
  };
  return {
    clock,
    timers,
    paint: () => onPaint?.(),
    /** Runs the timers due within `ms` (in order of their delay). */
    tick(ms: number) {
      const due = timers.filter((t) => t.ms <= ms).sort((a, b) => a.ms - b.ms);
      for (const t of due) timers.splice(timers.indexOf(t), 1);
      for (const t of due) t.fn();
    },
    get stopped() {
      return stopped;
    },
  };
}

describe('afterFirstPaint', () => {
  it('waits for the first contentful paint, then starts in the next task, once', () => {
    const f = fakeClock();
    const start = jest.fn();
    afterFirstPaint(start, f.clock);
    f.tick(0);
    expect(start).not.toHaveBeenCalled();
    f.paint();
    expect(start).not.toHaveBeenCalled();
    f.tick(0);
    expect(start).toHaveBeenCalledTimes(1);
    expect(f.stopped).toBe(true);
    // The fallback timer finds it started.
    f.tick(PAINT_WAIT_MS);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts anyway when nothing is painted in time', () => {
    const f = fakeClock();
    const start = jest.fn();
    afterFirstPaint(start, f.clock);
    f.tick(PAINT_WAIT_MS - 1);
    expect(start).not.toHaveBeenCalled();
    f.tick(PAINT_WAIT_MS);
    expect(start).toHaveBeenCalledTimes(1);
    f.paint();
    f.tick(0);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts at once when the page has painted already or is in a hidden tab (which never paints)', () => {
    for (const options of [{ painted: true }, { hidden: true }]) {
      const f = fakeClock(options);
      const start = jest.fn();
      afterFirstPaint(start, f.clock);
      expect(start).toHaveBeenCalledTimes(1);
      expect(f.timers).toHaveLength(0);
    }
  });

  it('starts in the next task in a browser that does not report paints', () => {
    const f = fakeClock({ tellsPaints: false });
    const start = jest.fn();
    afterFirstPaint(start, f.clock);
    expect(start).not.toHaveBeenCalled();
    f.tick(0);
    expect(start).toHaveBeenCalledTimes(1);
  });
});
