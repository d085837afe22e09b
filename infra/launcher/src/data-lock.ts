// One process at a time in a data folder: the embedded database is a single session, and two
// processes writing it would corrupt it. The holder's pid is kept in DATA_DIR/shop.pid; a file
// whose process is gone is taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'shop.pid';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the data folder for this process (`what` names it in the message another one gets); answers the release. */
export function claimDataDir(dataDir: string, what: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, `${process.pid} ${what}\n`, { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const [pid, ...holder] = readFileSync(file, 'utf8').trim().split(' ');
      if (Number(pid) !== process.pid && alive(Number(pid))) {
        throw new Error(`the data folder ${dataDir} is in use by ${holder.join(' ') || 'another process'} (pid ${pid}); stop it first`, { cause: err });
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not claim the data folder ${dataDir}`);
}
