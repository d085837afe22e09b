// Without SMTP_URL each e-mail is written as <id>.eml under MAIL_DIR (mail-relay.ts): the same
// bodies, on this machine's disk, kept as long as the table keeps them (EMAIL_BODY_RETENTION_DAYS).
// Every replica prunes its own folder: the folder is per machine, not shared.
import type { Dirent } from 'node:fs';
import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

/** Deletes the .eml files under `dir` last written before `cutoff`; how many. */
export async function pruneMailFiles(dir: string, cutoff: Date): Promise<number> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    // No e-mail written yet: nothing to prune.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let pruned = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.eml')) continue;
    const file = path.join(dir, entry.name);
    const info = await stat(file).catch(() => null);
    if (!info || info.mtime >= cutoff) continue;
    await unlink(file).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    pruned += 1;
  }
  return pruned;
}
