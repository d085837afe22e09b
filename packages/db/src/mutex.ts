// A FIFO async lock. PGlite has a single connection, so every kysely
// connection (a plain query or a whole transaction) holds this lock until it
// is released; without it two transactions would interleave on one session.
export class Mutex {
  #locked = false;
  #waiters: Array<() => void> = [];

  async acquire(): Promise<() => void> {
    if (this.#locked) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    this.#locked = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (next) next();
      else this.#locked = false;
    };
  }
}
