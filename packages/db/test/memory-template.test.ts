// An in-memory database (the tests') starts from an initialised data directory made once per machine,
// not from initdb every time: the template is in the OS temp dir, named by PGlite's version.
import { readdirSync } from 'node:fs';
import os from 'node:os';
import { openPglite } from '../src';

it('starts an in-memory database from the machine-wide template, made on first use, and each one is empty and its own', async () => {
  const first = await openPglite();
  const second = await openPglite();
  try {
    expect(readdirSync(os.tmpdir()).filter((f) => /^persona-pglite-[\d.]+-wal1\.tar\.gz$/.test(f)).length).toBeGreaterThanOrEqual(1);
    await first.pglite.exec('CREATE TABLE mine (n int); INSERT INTO mine VALUES (1)');
    expect((await first.pglite.query<{ n: number }>('SELECT n FROM mine')).rows).toEqual([{ n: 1 }]);
    // The second database never saw the first's table: the template is copied, not shared.
    await expect(second.pglite.query('SELECT n FROM mine')).rejects.toThrow(/does not exist/);
    // Made for starting fast: a 16 MB buffer pool (not 128 MB to zero at each start) and 1 MB WAL segments.
    const settings = await first.pglite.query<{ pool: string; segment: string }>(
      "SELECT current_setting('shared_buffers') AS pool, current_setting('wal_segment_size') AS segment",
    );
    expect(settings.rows).toEqual([{ pool: '16MB', segment: '1MB' }]);
  } finally {
    await first.close();
    await second.close();
  }
});

it('takes the buffer pool it is given, and refuses a size PostgreSQL would not read', async () => {
  const small = await openPglite(undefined, { sharedBuffers: '8MB' });
  try {
    expect((await small.pglite.query<{ pool: string }>("SELECT current_setting('shared_buffers') AS pool")).rows).toEqual([{ pool: '8MB' }]);
  } finally {
    await small.close();
  }
  await expect(openPglite(undefined, { sharedBuffers: '8 MB' })).rejects.toThrow(/shared buffers of "8 MB" are not a size PostgreSQL reads/);
});
