// A worker thread doing work nobody waits on (an invoice drawn after a payment, a Persona made
// after it) lowers its own CPU priority, so that on a busy machine the event loops answering
// requests are scheduled first. On Linux each thread has its own niceness and thread 0 of
// setpriority is the calling thread; raising it back needs a privilege a container lacks, so a
// thread is lowered once, for good.
import { setPriority } from 'node:os';

/** Lowers the calling thread's priority to `niceness` (0–19); false where that is not permitted (it then runs as it was). */
export function lowerThreadPriority(niceness: number): boolean {
  try {
    setPriority(niceness);
    return true;
  } catch {
    return false;
  }
}
