// The live preview of the dedication page (issue 13, point 2): POST /api/personas/preview answers
// the page the engine prints for the name and message as a PNG, cached by its inputs; what the
// Persona could not print, an unknown book or a flood is refused with a clear 4xx, and nothing is
// drawn for it.
import { lazyRedis, redisSharedBytes, type SharedBytes } from '@persona/service-kit';
import { describeWithRedis, extractPageTexts, TEST_REDIS_URL, uniqueName } from '@persona/test-kit';
import { createPreviews, DEFAULT_PREVIEW_CACHE_MINUTES } from '../../src/modules/personas/preview';

const KEPT_SECONDS = DEFAULT_PREVIEW_CACHE_MINUTES * 60;
import { dedicationPreviewPdf, PREVIEW_PERSONA_ID } from '../../src/modules/pdf-engine/dedication-preview';
import { inlineBuildPool, type BuildPool } from '../../src/modules/build-pool/build-pool';
import type { PersonalizationService } from '../../src/service';
import { startTestService } from '../support/test-service';

const BOOK_ID = '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';
const MISSING_BOOK = '7f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';
const UNPRINTABLE_BOOK = '2a1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5d';
const HINDI_BOOK = '3b1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5e';

/** PNG dimensions from its IHDR chunk. */
const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

function startService(previewsPerMinute: number, pool: BuildPool) {
  return startTestService({
    readSource: async () => {
      throw new Error('no Persona is made here');
    },
    readTitle: async (bookId) =>
      bookId === BOOK_ID
        ? { title: 'The Lighthouse Keeper', author: 'Meera Iyer' }
        : bookId === UNPRINTABLE_BOOK
          ? { title: 'Dawn', author: 'Li Bai 李白' }
          : bookId === HINDI_BOOK
            ? { title: 'सूरज की किरण', author: 'सूरज प्रकाश' }
            : null,
    buildPool: pool,
    previewsPerMinute,
  });
}

describe('the dedication page preview', () => {
  let service: PersonalizationService;
  let close: () => Promise<void>;
  let drawn = 0;
  beforeAll(async () => {
    const inline = inlineBuildPool();
    const counting: BuildPool = { ...inline, preview: (input) => ((drawn += 1), inline.preview(input)) };
    ({ service, close } = await startService(1000, counting));
  }, 60_000);
  afterAll(() => close());

  const preview = (body: object) => service.app.inject({ method: 'POST', url: '/api/personas/preview', payload: body });

  it('answers the page as a PNG, drawn once for the same inputs and again for others', async () => {
    const first = await preview({ bookId: BOOK_ID, name: 'अनन्या शर्मा', message: 'जन्मदिन मुबारक हो!\nWith love' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const { width, height } = pngSize(first.rawPayload);
    expect(width).toBe(600);
    expect(Math.round((height / width) * 1000)).toBe(Math.round((595 / 420) * 1000));
    expect(first.headers['x-preview-cache']).toBe('miss');
    // The same text typed again (spaces aside): the same image, from the cache.
    const again = await preview({ bookId: BOOK_ID, name: ' अनन्या  शर्मा ', message: 'जन्मदिन मुबारक हो!\nWith love' });
    expect(again.headers['x-preview-cache']).toBe('hit');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const other = await preview({ bookId: BOOK_ID, name: 'अनन्या शर्म' });
    expect(other.headers['x-preview-cache']).toBe('miss');
    expect(other.rawPayload.equals(first.rawPayload)).toBe(false);
    expect(drawn).toBe(2);
  });

  it('refuses what the Persona could not print, an unknown book and malformed bodies, drawing nothing', async () => {
    const before = drawn;
    const cases: Array<[object, number, RegExp]> = [
      [{ bookId: BOOK_ID, name: 'Ravi\u0007' }, 400, /without control characters/],
      [{ bookId: BOOK_ID, name: '    ' }, 400, /The name is required/],
      [{ bookId: BOOK_ID, name: 'x'.repeat(10_000) }, 400, /"name" must be at most 200 characters/],
      [{ bookId: BOOK_ID, name: 'Аnna' }, 400, /mixes Cyrillic and Latin letters/],
      [{ bookId: BOOK_ID, name: 'Ravi', message: 'm'.repeat(301) }, 400, /at most 300 characters/],
      [{ bookId: BOOK_ID, name: 'Ravi', message: 'Hi 🎉' }, 400, /We cannot print “🎉”/],
      [{ bookId: MISSING_BOOK, name: 'Ravi' }, 404, /Book not found/],
      // The engine's own rule: a book stored before the catalogue refused such an author is not previewed as boxes.
      [{ bookId: UNPRINTABLE_BOOK, name: 'Ravi' }, 422, /^The author has characters no Persona can print: “李” \(U\+674E\), “白” \(U\+767D\)$/],
      [{ bookId: 'not-a-book', name: 'Ravi' }, 400, /bookId/],
      [{ bookId: BOOK_ID }, 400, /name/],
      [{ bookId: BOOK_ID, name: 'Ravi', width: 4000 }, 400, /"width" is not allowed/],
    ];
    for (const [body, status, message] of cases) {
      const res = await preview(body);
      const sent = JSON.stringify(body).slice(0, 60);
      expect({ sent, status: res.statusCode, message: res.json().message }).toEqual({ sent, status, message: expect.stringMatching(message) });
    }
    expect(drawn).toBe(before);
  });

  it('draws a book whose author is in Devanagari, in the italic author line (a slanted face where the script has no italic)', async () => {
    const res = await preview({ bookId: HINDI_BOOK, name: 'Ravi' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
  });

  it('prints what the Persona prints: the name, the message, the day; placeholders for what a purchase makes', async () => {
    const pdf = await dedicationPreviewPdf({
      title: 'The Lighthouse Keeper',
      author: 'Meera Iyer',
      name: 'مريم الحسن',
      message: 'जन्मदिन मुबारक हो!\nWith love',
      purchaseDate: '2026-11-25',
      publicUrl: 'https://shop.example',
    });
    const [page] = await extractPageTexts(pdf);
    expect(page).toContain('Personalised for مريم الحسن');
    expect(page).toContain('on 25 November 2026');
    expect(page).toContain('जन्मदिन मुबारक हो!');
    expect(page).toContain('Meera Iyer');
    expect(page).toContain(PREVIEW_PERSONA_ID);
    expect(page!.replace(/\s+/g, ' ')).toContain(`Personal copy of مريم الحسن · ${PREVIEW_PERSONA_ID}`);
  });
});

describe('previews kept for PREVIEW_CACHE_MINUTES', () => {
  it('forgets a drawn preview (a name and a message) once its time is up, and draws it again if asked', async () => {
    const inline = inlineBuildPool();
    let now = 1_000_000;
    let drawn = 0;
    const previews = createPreviews({
      pool: { ...inline, preview: (input) => ((drawn += 1), inline.preview(input)) },
      readTitle: async () => ({ title: 'The Lighthouse Keeper', author: 'Meera Iyer' }),
      publicUrl: 'https://shop.example',
      keepMs: 10 * 60_000,
      clock: () => now,
    });
    try {
      const request = { bookId: BOOK_ID, name: 'Ananya Sharma', message: 'Happy birthday' };
      expect((await previews.draw(request, 'test')).cached).toBe(false);
      now += 9 * 60_000;
      expect((await previews.draw(request, 'test')).cached).toBe(true);
      now += 60_001;
      expect((await previews.draw(request, 'test')).cached).toBe(false);
      expect(drawn).toBe(2);
    } finally {
      await inline.close();
    }
  });
});

describe('previews under a flood', () => {
  it('are rate limited per client', async () => {
    const { service, close } = await startService(3, inlineBuildPool());
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        statuses.push(
          (await service.app.inject({ method: 'POST', url: '/api/personas/preview', payload: { bookId: BOOK_ID, name: `Ravi ${'a'.repeat(i)}` } })).statusCode,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await close();
    }
  }, 60_000);
});

describeWithRedis()('previews shared by the replicas through Redis (issue 25)', () => {
  it('draws a text once for every replica: another replica answers it from Redis, kept an hour', async () => {
    const prefix = 'persona:preview:';
    const inline = inlineBuildPool();
    const drawnBy: string[] = [];
    const sets: Array<{ key: string; done: Promise<void> }> = [];
    const replica = (name: string) => {
      const redisBytes = redisSharedBytes(TEST_REDIS_URL, prefix, KEPT_SECONDS);
      // The same store, its writes noted so the test knows when one has landed.
      const shared: SharedBytes = {
        ...redisBytes,
        set: (key, value) => {
          const done = redisBytes.set(key, value);
          sets.push({ key, done });
          return done;
        },
      };
      const pool: BuildPool = { ...inline, preview: (input) => (drawnBy.push(name), inline.preview(input)) };
      const previews = createPreviews({
        pool,
        readTitle: async () => ({ title: 'The Lighthouse Keeper', author: 'Meera Iyer' }),
        publicUrl: 'https://shop.example',
        shared,
      });
      return { previews, shared };
    };
    const [a, b] = [replica('a'), replica('b')];
    const raw = lazyRedis(TEST_REDIS_URL);
    const { redis } = raw;
    // A name of this run alone: the key is the hash of what is drawn.
    const request = {
      bookId: BOOK_ID,
      name: `Ananya ${uniqueName('r')
        .slice(-6)
        .replace(/[^a-z]/gi, 'x')}`,
    };
    try {
      const first = await a.previews.draw(request, 'test');
      expect(first.cached).toBe(false);
      expect(sets).toHaveLength(1);
      await sets[0]!.done;
      const second = await b.previews.draw(request, 'test');
      expect(second.cached).toBe(true);
      expect(Buffer.from(second.image).equals(Buffer.from(first.image))).toBe(true);
      expect(drawnBy).toEqual(['a']);
      const ttl = await redis.ttl(prefix + sets[0]!.key);
      expect(ttl).toBeGreaterThan(KEPT_SECONDS - 60);
      expect(ttl).toBeLessThanOrEqual(KEPT_SECONDS);
      await redis.del(prefix + sets[0]!.key);
    } finally {
      await raw.close();
      await a.shared.close();
      await b.shared.close();
      await inline.close();
    }
  });
});
