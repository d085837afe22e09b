// A stand-in for a print-on-demand house speaking the shape of Lulu's Print API (issue 27), for the
// orders service's tests: the OAuth2 client-credentials token; `POST /print-jobs/`, checked as the
// house checks it (the token, the shipping address, one line item with its pod_package_id and the
// cover's and interior's source URLs, a shipping level), the files fetched from their URLs and held
// to be PDFs; `GET /print-jobs/:id`; and the house's side of a job's life: its status changed,
// shipped with a carrier and a tracking number, or rejected, each told by a PRINT_JOB_STATUS_CHANGED
// webhook signed with HMAC-SHA256 of its body under the API secret (Lulu-HMAC-SHA256).
import { createHmac, randomBytes } from 'node:crypto';
import Fastify from 'fastify';

export interface StandInJob {
  id: number;
  body: {
    external_id: string;
    shipping_level: string;
    shipping_address: Record<string, string>;
    line_items: Array<{
      external_id: string;
      title: string;
      quantity: number;
      printable_normalization: { pod_package_id: string; cover: { source_url: string }; interior: { source_url: string } };
    }>;
  };
  status: string;
  /** What the house fetched from the files' URLs: each one's first bytes. */
  fetched: { cover: string; interior: string };
}

export interface PrintHouseStandIn {
  url: string;
  clientKey: string;
  clientSecret: string;
  jobs: StandInJob[];
  /** The next `n` job creations answer 503 (the house is down). */
  failNext(n: number): void;
  /** The webhook the house sends for a job's new status: its body and headers, for the shop to receive. */
  webhook(jobId: number, status: string, extra?: { trackingId?: string; carrier?: string; error?: string }): { body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

const SHIPPING_LEVELS = ['MAIL', 'PRIORITY_MAIL', 'GROUND', 'EXPEDITED', 'EXPRESS'];

/** `fetchFile`: how the house reads a file URL (the shop's, behind its gateway; tests route it to the right service). */
export async function startPrintHouseStandIn(fetchFile: (url: string) => Promise<Uint8Array | null>): Promise<PrintHouseStandIn> {
  const clientKey = `key-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(16).toString('hex');
  const tokens = new Set<string>();
  const jobs: StandInJob[] = [];
  let failing = 0;
  const app = Fastify();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.post('/auth/realms/glasstree/protocol/openid-connect/token', async (request, reply) => {
    const expected = `Basic ${Buffer.from(`${clientKey}:${clientSecret}`).toString('base64')}`;
    if (request.headers.authorization !== expected || request.body !== 'grant_type=client_credentials')
      return reply.code(401).send({ error: 'invalid_client' });
    const token = randomBytes(16).toString('hex');
    tokens.add(token);
    return { access_token: token, expires_in: 3600, token_type: 'Bearer' };
  });

  app.post('/print-jobs/', async (request, reply) => {
    const token = /^Bearer (\w+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!token || !tokens.has(token)) return reply.code(401).send({ detail: 'Authentication credentials were not provided.' });
    if (failing > 0) {
      failing -= 1;
      return reply.code(503).send({ detail: 'Service temporarily unavailable' });
    }
    const body = request.body as StandInJob['body'];
    const problems: string[] = [];
    const address = body?.shipping_address ?? {};
    for (const field of ['name', 'street1', 'city', 'country_code', 'postcode', 'phone_number'])
      if (!address[field]) problems.push(`shipping_address.${field}: required`);
    if (!SHIPPING_LEVELS.includes(body?.shipping_level)) problems.push('shipping_level: not a shipping level');
    const item = body?.line_items?.[0];
    if (!item || body.line_items.length !== 1 || item.quantity !== 1) problems.push('line_items: one book, one copy');
    const files = item?.printable_normalization;
    if (!/^[0-9A-Z]{27}$/.test(files?.pod_package_id ?? '')) problems.push('pod_package_id: not a product');
    if (problems.length > 0) return reply.code(400).send({ detail: problems });
    // The house reads the files before it accepts the job.
    const [cover, interior] = await Promise.all([fetchFile(files!.cover.source_url), fetchFile(files!.interior.source_url)]);
    for (const [name, bytes] of [
      ['cover', cover],
      ['interior', interior],
    ] as const) {
      if (!bytes || Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') problems.push(`${name}.source_url: not a PDF the house could read`);
    }
    if (problems.length > 0) return reply.code(400).send({ detail: problems });
    const job: StandInJob = {
      id: 10_000 + jobs.length,
      body,
      status: 'CREATED',
      fetched: { cover: Buffer.from(cover!.subarray(0, 8)).toString('latin1'), interior: Buffer.from(interior!.subarray(0, 8)).toString('latin1') },
    };
    jobs.push(job);
    return reply.code(201).send({ id: job.id, external_id: body.external_id, status: { name: job.status } });
  });

  app.get('/print-jobs/:id', async (request, reply) => {
    const job = jobs.find((j) => j.id === Number((request.params as { id: string }).id));
    return job ? { id: job.id, external_id: job.body.external_id, status: { name: job.status } } : reply.code(404).send({ detail: 'Not found.' });
  });

  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    clientKey,
    clientSecret,
    jobs,
    failNext(n) {
      failing = n;
    },
    webhook(jobId, status, extra = {}) {
      const job = jobs.find((j) => j.id === jobId);
      if (!job) throw new Error(`no job ${jobId}`);
      job.status = status;
      const body = JSON.stringify({
        topic: 'PRINT_JOB_STATUS_CHANGED',
        data: {
          id: job.id,
          external_id: job.body.external_id,
          status: { name: status, ...(extra.error ? { messages: { error: extra.error } } : {}) },
          line_items: [
            {
              external_id: job.body.line_items[0]!.external_id,
              ...(extra.trackingId ? { tracking_id: extra.trackingId, tracking_urls: [`https://track.example/${extra.trackingId}`] } : {}),
              ...(extra.carrier ? { carrier_name: extra.carrier } : {}),
            },
          ],
        },
      });
      return { body, headers: { 'content-type': 'application/json', 'lulu-hmac-sha256': createHmac('sha256', clientSecret).update(body).digest('hex') } };
    },
    close: () => app.close(),
  };
}
