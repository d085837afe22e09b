import { closeHttpServer, createServiceApp } from '../src';

describe('closeHttpServer', () => {
  it('refuses new connections, lets an in-flight request finish, and cuts one still running at the deadline', async () => {
    const app = createServiceApp({ name: 'closing', logger: false });
    let entered = 0;
    app.get('/quick', async () => {
      entered++;
      await new Promise((r) => setTimeout(r, 300));
      return { done: true };
    });
    app.get('/stuck', async () => {
      entered++;
      await new Promise((r) => setTimeout(r, 60_000).unref());
      return { done: false };
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const quick = fetch(`${url}/quick`).then((r) => r.status);
    const stuck = fetch(`${url}/stuck`).then(
      (r) => r.status,
      () => 'cut',
    );
    while (entered < 2) await new Promise((r) => setTimeout(r, 10));

    const started = Date.now();
    const closing = closeHttpServer(app, 800);
    await new Promise((r) => setTimeout(r, 50));
    await expect(fetch(`${url}/quick`)).rejects.toThrow();

    expect(await quick).toBe(200);
    await closing;
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(700);
    expect(took).toBeLessThan(5000);
    expect(await stuck).toBe('cut');
  });
});
