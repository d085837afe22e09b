// Issue 21's findings 2–4 against the embedded shop, through its gateway, as an attacker would
// send them: every service shares one event loop here, so a file parsed on it stalled the whole
// shop. A 51 KB PDF inflating to 50 MB and a 204 KB one inflating to 200 MB at the public verify
// route, a 66 KB EPUB of overlapping entries, and a 102 KB full PDF inflating to 100 MB from an
// administrator are each refused with the limit they pass, nothing is written, and the shop keeps
// answering GET /api/categories meanwhile. (Finding 1, the HEAD request, is the security suite's.)
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { flateBombPdf, objectStreamBombPdf, overlappingEntriesEpub } from '@persona/test-kit';
import { startTestShop, TEST_ADMIN, type RunningShop } from './support/shop';

const MB = 1024 * 1024;

describe('hostile uploads to the embedded shop', () => {
  let shop: RunningShop;
  let adminToken: string;
  let category: string;
  beforeAll(async () => {
    shop = await startTestShop();
    const login = await fetch(`${shop.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: TEST_ADMIN.email, password: TEST_ADMIN.password }),
    });
    adminToken = ((await login.json()) as { data: { token: string } }).data.token;
    category = ((await (await fetch(`${shop.url}/api/categories`)).json()) as { data: Array<{ _id: string }> }).data[0]!._id;
  }, 120_000);
  afterAll(() => shop?.close());

  const upload = (path: string, form: FormData, headers: Record<string, string> = {}) => fetch(`${shop.url}${path}`, { method: 'POST', body: form, headers });
  const fileForm = (bytes: Buffer, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    return form;
  };
  const bookCount = async () => ((await (await fetch(`${shop.url}/api/books?limit=1`)).json()) as { meta: { total: number } }).meta.total;

  /** Sends `request` while asking for the categories every 20 ms: how long it took, and the longest wait for a category list. */
  async function whileServing(request: () => Promise<Response>) {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    let done = false;
    const answer = request().finally(() => (done = true));
    const waits: number[] = [];
    while (!done) {
      const t = performance.now();
      expect((await fetch(`${shop.url}/api/categories`)).status).toBe(200);
      waits.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
    delay.disable();
    return { res: await answer, ms: performance.now() - started, longestWait: Math.max(...waits), asked: waits.length, loopStall: delay.max / 1e6 };
  }

  it('finding 2: reads a 51 KB PDF that inflates to 50 MB on a thread of its own (within the budget), the catalogue answering all along', async () => {
    const bomb = objectStreamBombPdf(50 * MB);
    expect(bomb.length).toBeLessThan(60 * 1024);
    const { res, ms, longestWait, loopStall } = await whileServing(() => upload('/api/personas/verify', fileForm(bomb, 'copy.pdf')));
    // 50 MB is under the budget of one stream (64 MB): the file is read (seconds of a thread's time), and it is no Persona.
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { genuine: boolean } }).data.genuine).toBe(false);
    expect(longestWait).toBeLessThan(ms / 2);
    expect(loopStall).toBeLessThan(ms / 2);
  }, 60_000);

  it('finding 2: refuses a 204 KB PDF that inflates to 200 MB with 413, and a flood of such streams likewise, while the shop answers', async () => {
    for (const bomb of [objectStreamBombPdf(200 * MB), flateBombPdf(2 * MB)]) {
      const { res, ms, longestWait, asked, loopStall } = await whileServing(() => upload('/api/personas/verify', fileForm(bomb, 'copy.pdf')));
      expect(res.status).toBe(413);
      expect(((await res.json()) as { code: string }).code).toBe('UNPACKS_TOO_LARGE');
      expect(asked).toBeGreaterThan(3);
      expect(longestWait).toBeLessThan(ms / 2);
      expect(loopStall).toBeLessThan(ms / 2);
    }
  }, 60_000);

  it('finding 3: refuses a 66 KB EPUB whose entries overlap (512 MB unpacked before) with 422', async () => {
    const bomb = overlappingEntriesEpub();
    expect(bomb.length).toBeLessThan(70 * 1024);
    const res = await upload('/api/personas/verify', fileForm(bomb, 'copy.epub'));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toMatch(/overlap, as only a zip bomb's do$/);
  });

  it('finding 4: refuses an administrator’s 102 KB full PDF that inflates to 100 MB, writes no book, and the shop answers meanwhile', async () => {
    const before = await bookCount();
    const bomb = objectStreamBombPdf(100 * MB);
    const form = () => {
      const f = new FormData();
      for (const [k, v] of Object.entries({ title: 'A Bomb', author: 'Nobody', description: 'x', category, price: '100' })) f.append(k, v);
      f.append('fullPdf', new Blob([new Uint8Array(bomb)], { type: 'application/pdf' }), 'book.pdf');
      return f;
    };
    const { res, ms, longestWait } = await whileServing(() => upload('/api/books', form(), { authorization: `Bearer ${adminToken}` }));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'UNPACKS_TOO_LARGE', message: expect.stringMatching(/^The full PDF would have more than 64 MB/) });
    expect(longestWait).toBeLessThan(Math.max(ms / 2, 50));
    expect(await bookCount()).toBe(before);
  }, 60_000);
});
