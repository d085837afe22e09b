// The administrator's lists on a real streaming replica (issue 25): a message sent a moment ago is in
// the list at once, read on the primary while the replica has stopped replaying and on the replica
// once it has caught up.
import type { Database } from '@persona/db';
import { describeWithReadReplica, startReadReplica, type TestReadReplica } from '@persona/test-kit';
import type { AdminDB } from '../src/db';
import type { AdminService } from '../src/service';
import { OWNER, startAdminHarness, type AdminHarness } from './support';

describeWithReadReplica()('admin lists with a read replica', () => {
  let replica: TestReadReplica;
  let harness: AdminHarness;
  let database: Database<AdminDB>;
  let service: AdminService;
  const admin = { authorization: '' };

  beforeAll(async () => {
    replica = await startReadReplica();
    harness = await startAdminHarness('postgres', {}, replica.url());
    ({ database, service } = harness);
    const login = await service.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: OWNER.email, password: OWNER.password } });
    admin.authorization = `Bearer ${login.json().data.token}`;
    await replica.catchUp();
  }, 180_000);

  afterAll(async () => {
    await replica?.resumeReplay().catch(() => undefined);
    await harness?.close();
    await replica?.close();
  }, 60_000);

  const send = async (name: string) => {
    const sent = await service.app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: { name, email: `${name.toLowerCase()}@example.com`, message: `A note from ${name}` },
    });
    expect(sent.statusCode).toBe(201);
  };
  const names = async () => {
    const list = await service.app.inject({ url: '/api/feedback/all?limit=100', headers: admin });
    expect(list.statusCode).toBe(200);
    return (list.json().data as Array<{ name: string }>).map((f) => f.name);
  };

  it('lists a message sent a moment ago: on the primary while the replica lags, on the replica once it has caught up', async () => {
    await replica.pauseReplay();
    try {
      // The message is written by a public route, outside any unit of work: the list still sees it.
      await send('Meera');
      const primaryReads = database.routed.primary;
      expect(await names()).toContain('Meera');
      expect(database.routed.primary).toBe(primaryReads + 1);
    } finally {
      await replica.resumeReplay();
    }
    await replica.catchUp();
    const replicaReads = database.routed.replica;
    expect(await names()).toContain('Meera');
    expect(database.routed.replica).toBe(replicaReads + 1);
    await send('Kabir');
    expect(await names()).toEqual(expect.arrayContaining(['Meera', 'Kabir']));
  });
});
