// Find a leaked copy: what the page sends, what it refuses before sending, and how each answer reads.
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { MAX_LEAK_UPLOAD_BYTES, type LeakFinding } from '@persona/contracts';
import { searchLeak, type LeakOutcome } from '../lib/leak-search';
import { LeakAlert, LeakResult, LeaksPage } from './leaks-page';

type Answer = () => Response;
let answer: Answer;
let sent: Array<{ url: string; init: RequestInit }> = [];
const store = new Map<string, string>();
const realFetch = globalThis.fetch;

beforeAll(() => {
  (globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => void store.set(key, value),
    removeItem: (key: string) => void store.delete(key),
  };
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return answer();
  }) as typeof fetch;
});
afterAll(() => {
  globalThis.fetch = realFetch;
  delete (globalThis as { localStorage?: unknown }).localStorage;
});
beforeEach(() => {
  sent = [];
  store.clear();
  store.set('token', 'admin-token');
});

const json =
  (status: number, body: unknown): Answer =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const pdf = (name = 'found-online.pdf', type = 'application/pdf') => new File(['%PDF-1.7 a leaked copy'], name, { type });
/** A file that says it is this big, without holding that many bytes. */
const sized = (file: File, size: number) => Object.defineProperty(file, 'size', { value: size });

const MATCH: LeakFinding = {
  format: 'pdf',
  mark: '0a1b2c3d4e5f',
  match: {
    personaId: 'PB-7K3M-9QX2-H4TZ',
    orderId: '6f1c2b8e-3d4a-4b5c-9e6f-7a8b9c0d1e2f',
    bookTitle: 'Gitanjali',
    buyerName: 'Asha Rao',
    recipientName: null,
    paidAt: '2026-11-21',
  },
  evidence: 'The mark was read from the spacing of the text on pages 3 to 40.',
};
const NO_MATCH: LeakFinding = {
  format: 'epub',
  mark: null,
  match: null,
  evidence: 'No mark could be read: the text carries no spacing pattern.',
};

/** What the page shows for an outcome, as the server would render it. */
function shown(outcome: LeakOutcome): string {
  if (outcome.kind !== 'found') return renderToStaticMarkup(<LeakAlert message={outcome.message} />);
  return renderToStaticMarkup(
    <MemoryRouter>
      <LeakResult finding={outcome.finding} />
    </MemoryRouter>,
  );
}

describe('Find a leaked copy', () => {
  it('shows the explanation, a labelled PDF/EPUB input, the submit button and a polite result region', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <LeaksPage />
      </MemoryRouter>,
    );
    expect(html).toContain('<h1 class="page-header__title">Find a leaked copy</h1>');
    expect(html).toContain('the mark every copy carries names the order it was sold in');
    const inputId = /<input[^>]*id="([^"]+)"[^>]*type="file"/.exec(html)?.[1];
    expect(inputId).toBeTruthy();
    expect(html).toContain(`<label for="${inputId}">`);
    expect(html).toMatch(/accept="[^"]*\.pdf[^"]*\.epub[^"]*application\/pdf[^"]*application\/epub\+zip"/);
    expect(html).toMatch(/<button type="submit"[^>]*>Find the order<\/button>/);
    expect(html).toContain('aria-live="polite"');
  });

  it('posts the copy as multipart with the admin token and shows the order it was sold in', async () => {
    answer = json(200, { data: MATCH });
    const file = pdf();
    const outcome = await searchLeak(file);
    expect(outcome).toEqual({ kind: 'found', finding: MATCH });

    expect(sent).toHaveLength(1);
    const [{ url, init }] = sent;
    expect(url).toBe('/api/personas/leaks');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer admin-token' });
    // The browser writes the multipart boundary itself.
    expect(init.headers).not.toHaveProperty('Content-Type');
    expect(init.body).toBeInstanceOf(FormData);
    const body = init.body as FormData;
    expect([...body.keys()]).toEqual(['file']);
    expect((body.get('file') as File).name).toBe('found-online.pdf');

    const html = shown(outcome);
    expect(html).toContain('This copy was sold in order 6f1c2b8e-3d4a-4b5c-9e6f-7a8b9c0d1e2f');
    expect(html).toContain('PB-7K3M-9QX2-H4TZ');
    expect(html).toContain('<dt>Buyer</dt><dd>Asha Rao</dd>');
    expect(html).toContain('<dt>Paid on</dt><dd>21 Nov 2026</dd>');
    expect(html).toContain(MATCH.evidence);
    // Not a gift: no recipient.
    expect(html).not.toContain('Recipient');
    // The next step is a button to the order page (/admin/orders/:id under the app's base).
    expect(html).toMatch(/<a [^>]*href="\/orders\/6f1c2b8e-3d4a-4b5c-9e6f-7a8b9c0d1e2f"[^>]*>Open this order<\/a>/);
    expect(html).toContain('class="btn btn--primary"');
  });

  it("names a gift's recipient beside the buyer", () => {
    const gift: LeakFinding = { ...MATCH, match: { ...MATCH.match!, recipientName: 'Meera Rao' } };
    const html = shown({ kind: 'found', finding: gift });
    expect(html).toContain('<dt>Buyer</dt><dd>Asha Rao</dd>');
    expect(html).toContain('<dt>Recipient</dt><dd>Meera Rao (a gift)</dd>');
  });

  it('says when no order matches, with the evidence', async () => {
    answer = json(200, { data: NO_MATCH });
    const outcome = await searchLeak(pdf('copy.epub', 'application/epub+zip'));
    const html = shown(outcome);
    expect(html).toContain('No order matches this copy');
    expect(html).toContain(NO_MATCH.evidence);
    expect(html).not.toContain('This copy was sold');
  });

  it('refuses a file over 40 MB, a .txt file or no file before any request', async () => {
    const tooBig = await searchLeak(sized(pdf('huge.pdf'), MAX_LEAK_UPLOAD_BYTES + 1));
    expect(tooBig.kind).toBe('refused');
    expect(shown(tooBig)).toContain('at most 40 MB');

    const text = await searchLeak(pdf('notes.txt', 'text/plain'));
    expect(text.kind).toBe('refused');
    expect(shown(text)).toContain('is not a PDF or an EPUB');
    expect(shown(text)).toContain('role="alert"');

    expect((await searchLeak(null)).kind).toBe('refused');
    expect(sent).toHaveLength(0);

    // Exactly the limit, or an EPUB the browser gave no type, is sent.
    answer = json(200, { data: NO_MATCH });
    expect((await searchLeak(sized(pdf('edge.pdf'), MAX_LEAK_UPLOAD_BYTES))).kind).toBe('found');
    expect((await searchLeak(pdf('copy.epub', ''))).kind).toBe('found');
    expect(sent).toHaveLength(2);
  });

  it("shows the server's message when it refuses the copy", async () => {
    answer = json(415, { statusCode: 415, error: 'Unsupported Media Type', message: 'This file is neither a PDF nor an EPUB.', code: 'NOT_A_PERSONA' });
    const outcome = await searchLeak(pdf('renamed.pdf'));
    expect(outcome).toEqual({ kind: 'failed', message: 'This file is neither a PDF nor an EPUB.' });
    expect(shown(outcome)).toBe('<div class="load-error" role="alert"><p>This file is neither a PDF nor an EPUB.</p></div>');

    answer = json(413, { statusCode: 413, error: 'Payload Too Large', message: 'The copy is larger than 40 MB.' });
    expect(shown(await searchLeak(pdf()))).toContain('The copy is larger than 40 MB.');
  });
});
