// Personas kept in S3 (FILE_STORE=s3, issue 25), against a real S3-compatible server: a Persona
// this replica made downloads here, is in the bucket under "personas/" for every other replica to
// read, and nothing of it is left on this machine's disk.
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { createEvent } from '@persona/bus';
import { S3FileStore } from '@persona/file-store';
import { startS3Server, type TestS3Server } from '@persona/test-kit';
import { inlineBuildPool } from '../../src/modules/build-pool/build-pool';
import { paidOrder, readOneChapter, startServiceOn } from '../support/service-on';

describe('Personas in S3', () => {
  let s3: TestS3Server;
  let svc: Awaited<ReturnType<typeof startServiceOn>>;
  beforeAll(async () => {
    s3 = await startS3Server();
    svc = await startServiceOn('pglite', { readSource: readOneChapter, buildPool: inlineBuildPool(), personasS3: { ...s3.settings, prefix: 'shop/' } });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await s3?.close();
  });

  it('keeps a Persona in the bucket, where another replica reads it, and downloads it from there', async () => {
    const personaId = 'PRS-S3S3-9QXD-2HFA-J8TW';
    await svc.bus.publish(createEvent('order.paid', paidOrder(randomUUID(), personaId), { correlationId: 'c-s3' }));
    for (const end = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
      const row = await svc.database.db.selectFrom('personas').select('status').where('persona_id', '=', personaId).executeTakeFirst();
      if (row?.status === 'ready') break;
      if (Date.now() > end) throw new Error(`${personaId} was not made`);
    }
    const download = await svc.service.app.inject({ url: `/api/personas/${personaId}/download?format=pdf` });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    // Another replica: the same bucket and prefix, nothing shared with this process but the store.
    const other = new S3FileStore({ ...s3.settings, prefix: 'shop/personas/' });
    try {
      expect(await other.size(`${personaId}.pdf`)).toBe(download.rawPayload.length);
      expect(await other.size(`${personaId}.epub`)).toBeGreaterThan(0);
    } finally {
      other.close();
    }
    // Nothing of it on this machine's disk.
    expect((await readdir(svc.dir)).filter((f) => f.startsWith(personaId))).toEqual([]);
  }, 60_000);
});
