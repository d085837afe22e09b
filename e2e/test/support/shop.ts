// Starts the whole shop with startShop() from @persona/launcher on a fresh data dir (a copy of the
// run's template when global-setup.ts made one): in this process
// when jest runs with --experimental-vm-modules (PGlite needs it inside jest's VM), else in a child
// Node process. STOREFRONT_E2E_URL points the tests at an already running shop instead.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Book } from '@persona/contracts';
import { fromShopTemplate, TEST_ADMIN, TEST_ADMIN_ENV } from './shared-fixtures';

export interface RunningShop {
  url: string;
  /** Where the shop writes its e-mails as .eml files (no SMTP_URL in tests). */
  mailDir: string;
  close(): Promise<void>;
}

const START_TIMEOUT_MS = 90000;

/** A shop as it starts, before this module adds where its e-mails go. */
type StartedShop = Omit<RunningShop, 'mailDir'>;

function vmModulesEnabled(): boolean {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('--experimental-vm-modules'));
}

export { TEST_ADMIN };
const ADMIN_ENV = TEST_ADMIN_ENV;

export async function startTestShop(): Promise<RunningShop> {
  const external = process.env.STOREFRONT_E2E_URL;
  if (external) return { url: external.replace(/\/$/, ''), mailDir: process.env.STOREFRONT_E2E_MAIL_DIR ?? '', close: async () => {} };

  const tmp = mkdtempSync(join(tmpdir(), 'persona-e2e-'));
  const dataDir = join(tmp, 'shop');
  const removeDataDir = () => rmSync(tmp, { recursive: true, force: true });
  try {
    await fromShopTemplate(dataDir);
    const shop = vmModulesEnabled() ? await startInProcess(dataDir) : await startInChild(dataDir);
    return {
      url: shop.url.replace(/\/$/, ''),
      mailDir: process.env.MAIL_DIR || join(dataDir, 'mail'),
      close: async () => {
        try {
          await shop.close();
        } finally {
          removeDataDir();
        }
      },
    };
  } catch (error) {
    removeDataDir();
    throw error;
  }
}

async function startInProcess(dataDir: string): Promise<StartedShop> {
  const { startShop } = await import('@persona/launcher');
  return startShop({ dataDir, port: 0, env: { ...process.env, ...ADMIN_ENV } });
}

function startInChild(dataDir: string): Promise<StartedShop> {
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'run-shop.cjs'), dataDir], {
    cwd: join(__dirname, '..', '..'),
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...ADMIN_ENV, NODE_OPTIONS: '' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
      await exited;
      clearTimeout(timer);
    }
  };

  return new Promise<StartedShop>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      void close();
      reject(new Error('The shop did not start in time'));
    }, START_TIMEOUT_MS);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      buffer += chunk;
      const match = /PERSONA_SHOP_URL=(\S+)/.exec(buffer);
      if (match) {
        clearTimeout(timer);
        buffer = '';
        resolve({ url: match[1]!, close });
      } else if (buffer.length > 100000) {
        buffer = buffer.slice(-1000);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The shop process exited (code ${code}) before it was ready`));
    });
  });
}

/** Every book in full: the list carries summaries, so each book is read on its own for its sample. */
export async function fetchAllBooks(url: string): Promise<Book[]> {
  const response = await fetch(`${url}/api/books?limit=100`);
  if (!response.ok) throw new Error(`GET /api/books answered ${response.status}`);
  const body = (await response.json()) as { data: Array<{ _id: string }> };
  return Promise.all(
    body.data.map(async ({ _id }) => {
      const one = await fetch(`${url}/api/books/${_id}`);
      if (!one.ok) throw new Error(`GET /api/books/${_id} answered ${one.status}`);
      return ((await one.json()) as { data: Book }).data;
    }),
  );
}

type Headers = Record<string, string>;

/** POSTs JSON through the gateway; answers the envelope's data, or throws with the message. */
export async function postJson(url: string, path: string, body: unknown, headers: Headers = {}): Promise<Record<string, string>> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await res.json()) as { data: Record<string, string>; message?: string };
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${answer.message ?? ''}`);
  return answer.data;
}

export interface ApiPurchase {
  bookId: string;
  fullName: string;
  email?: string;
  /** Digital unless said; a printed copy goes to TEST_ADDRESS. */
  deliveryType?: 'digital' | 'physical';
}

export const TEST_ADDRESS = { line1: '12 MG Road', city: 'Bengaluru', zip: '560001', country: 'India' };

/** Starts a purchase as the storefront's checkout does (the order exists, unpaid). */
export async function initiateThroughApi(url: string, input: ApiPurchase, headers: Headers = {}): Promise<{ orderId: string; razorpayOrderId: string }> {
  const physical = input.deliveryType === 'physical';
  const { orderId, razorpayOrderId } = await postJson(
    url,
    '/api/payments/initiate',
    {
      book: input.bookId,
      fullName: input.fullName,
      email: input.email ?? 'buyer@example.com',
      phone: '+91 98765 43210',
      deliveryType: physical ? 'physical' : 'digital',
      address: physical ? TEST_ADDRESS : null,
    },
    headers,
  );
  return { orderId: orderId!, razorpayOrderId: razorpayOrderId! };
}

/** Declines the payment at the test-mode stand-in (its payment.failed webhook follows). */
export async function declineThroughApi(url: string, razorpayOrderId: string): Promise<void> {
  const res = await fetch(`${url}/api/payments/test-mode/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ razorpayOrderId, outcome: 'failure' }),
  });
  if (!res.ok) throw new Error(`declining answered ${res.status}`);
}

/**
 * Buys a Persona the way the storefront does, in test mode: initiate, pay at the stand-in, verify.
 * `headers` go with every request (e.g. an `x-correlation-id` to follow the purchase through the logs).
 */
export async function buyPersonaThroughApi(url: string, input: ApiPurchase, headers: Headers = {}): Promise<{ orderId: string; personaId: string }> {
  const { orderId, razorpayOrderId } = await initiateThroughApi(url, input, headers);
  const paid = await postJson(url, '/api/payments/test-mode/pay', { razorpayOrderId, outcome: 'success' }, headers);
  const verified = await postJson(
    url,
    '/api/payments/verify',
    { orderId, razorpayOrderId, razorpayPaymentId: paid.razorpay_payment_id, razorpaySignature: paid.razorpay_signature },
    headers,
  );
  return { orderId, personaId: verified.personaId! };
}

/**
 * Logs the test administrator in through the gateway; the answer is the bearer header to send.
 * The admin service allows ten logins a minute per client: a suite that logs in more often waits
 * for the Retry-After it is told, as a person would, and tries once more.
 */
export async function adminAuth(url: string): Promise<{ authorization: string }> {
  const attempt = () =>
    fetch(`${url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: TEST_ADMIN.email, password: TEST_ADMIN.password }),
    });
  let res = await attempt();
  if (res.status === 429) {
    const wait = Math.min(Number(res.headers.get('retry-after') ?? 60), 60);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    res = await attempt();
  }
  if (!res.ok) throw new Error(`admin login answered ${res.status}`);
  return { authorization: `Bearer ${((await res.json()) as { data: { token: string } }).data.token}` };
}

/** Creates a book through the gateway as the administrator would (multipart); answers its id. */
export async function createBookThroughApi(
  url: string,
  auth: { authorization: string },
  book: { title: string; author: string; price: number; tags: string[]; category: string; description?: string },
): Promise<string> {
  const form = new FormData();
  form.append('title', book.title);
  form.append('author', book.author);
  form.append('description', book.description ?? `${book.title}, a book by ${book.author}.`);
  form.append('category', book.category);
  form.append('price', String(book.price));
  form.append('tags', JSON.stringify(book.tags));
  form.append('sampleContent', 'A first line.\nA second line.');
  const res = await fetch(`${url}/api/books`, { method: 'POST', headers: auth, body: form });
  const answer = (await res.json()) as { data: { _id: string }; message?: string };
  if (!res.ok) throw new Error(`POST /api/books answered ${res.status}: ${answer.message ?? ''}`);
  return answer.data._id;
}

/** An e-mail the shop wrote, decoded: its headers and its text and HTML parts as they read. */
export interface WrittenMail {
  raw: string;
  to: string;
  text: string;
  html: string;
}

// Quoted-printable: soft line breaks and =XX escapes (UTF-8 bytes).
const unquote = (qp: string) =>
  Buffer.from(
    qp.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

export function parseMail(raw: string): WrittenMail {
  const part = (type: string) => {
    const match = new RegExp(`Content-Type: ${type}[^\\n]*\\n(?:[^\\n]+\\n)*\\n([\\s\\S]*?)(?:\\n----|$)`).exec(raw);
    return match ? unquote(match[1]!) : '';
  };
  return { raw, to: /^To: (.*)$/m.exec(raw)?.[1] ?? '', text: part('text/plain'), html: part('text/html') };
}

/**
 * The e-mails the shop has written to `to` whose text contains `containing`, waiting (up to
 * `timeoutMs`) until there are at least `atLeast` of them: the mail relay sends within seconds.
 */
export async function mailsTo(mailDir: string, to: string, containing: string, atLeast = 1, timeoutMs = 20_000): Promise<WrittenMail[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = await readdir(mailDir).catch(() => [] as string[]);
    const mails = (await Promise.all(files.filter((f) => f.endsWith('.eml')).map(async (f) => parseMail(await readFile(join(mailDir, f), 'utf8'))))).filter(
      (mail) => mail.to.includes(to) && mail.text.includes(containing),
    );
    if (mails.length >= atLeast || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
