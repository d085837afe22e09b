// E-mails written as files (no SMTP_URL) are kept as long as the table keeps their bodies: a file
// last written before the cutoff goes, a newer one and anything not an e-mail stay.
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pruneMailFiles } from '../../../src/modules/retention/mail-files';

describe('e-mail files past their retention', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'orders-mail-retention-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('deletes the .eml files written before the cutoff and nothing else', async () => {
    const old = new Date(Date.now() - 200 * 86_400_000);
    for (const name of ['old.eml', 'new.eml', 'old-notes.txt']) await writeFile(path.join(dir, name), 'Subject: hello\r\n\r\nThe text.');
    await utimes(path.join(dir, 'old.eml'), old, old);
    await utimes(path.join(dir, 'old-notes.txt'), old, old);
    const cutoff = new Date(Date.now() - 180 * 86_400_000);
    expect(await pruneMailFiles(dir, cutoff)).toBe(1);
    expect((await readdir(dir)).sort()).toEqual(['new.eml', 'old-notes.txt']);
    expect(await pruneMailFiles(dir, cutoff)).toBe(0);
  });

  it('finds nothing to prune in a folder no e-mail was written to yet', async () => {
    expect(await pruneMailFiles(path.join(dir, 'not-yet'), new Date())).toBe(0);
  });
});
