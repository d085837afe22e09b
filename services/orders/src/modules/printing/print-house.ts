// A print-on-demand house's API, in the shape of Lulu's Print API (issue 27): an OAuth2
// client-credentials token, then `POST /print-jobs/` with one line item per book (its title, the
// cover's and interior's source URLs, a product code — the pod_package_id: trim, colour, quality,
// binding, paper, finish), the shipping level and the reader's address; the house then POSTs
// PRINT_JOB_STATUS_CHANGED webhooks signed with HMAC-SHA256 of the raw body under the API secret
// (`Lulu-HMAC-SHA256`, hexadecimal), the line items carrying the carrier and tracking numbers once
// shipped. Tested against a stand-in of that shape (test/support/print-house-stand-in.ts).
import { createHmac, timingSafeEqual } from 'node:crypto';
import secureJson from 'secure-json-parse';
import type { PrintJobRequest, PrintJobUpdate, PrintProvider } from './print-provider';

export interface PrintHouseSettings {
  /** The API's address (PRINT_HOUSE_URL), e.g. https://api.lulu.com. */
  url: string;
  clientKey: string;
  clientSecret: string;
  /** The product: A5 (5.83 × 8.27 in), black and white, standard, perfect bound, 60# white, matte cover. */
  podPackageId?: string;
  /** MAIL, PRIORITY_MAIL, GROUND, EXPEDITED or EXPRESS. */
  shippingLevel?: string;
  /** Whom the house writes to about a job. */
  contactEmail: string;
  timeoutMs?: number;
}

export const DEFAULT_POD_PACKAGE = '0583X0827BWSTDPB060UW444MXX';
export const SIGNATURE_HEADER = 'lulu-hmac-sha256';

/** ISO 3166-2:IN subdivision codes by GST state code: the house's `state_code`. */
const ISO_STATE: Record<string, string> = {
  '01': 'JK', '02': 'HP', '03': 'PB', '04': 'CH', '05': 'UK', '06': 'HR', '07': 'DL', '08': 'RJ', '09': 'UP', '10': 'BR',
  '11': 'SK', '12': 'AR', '13': 'NL', '14': 'MN', '15': 'MZ', '16': 'TR', '17': 'ML', '18': 'AS', '19': 'WB', '20': 'JH',
  '21': 'OD', '22': 'CG', '23': 'MP', '24': 'GJ', '26': 'DH', '27': 'MH', '29': 'KA', '30': 'GA', '31': 'LD', '32': 'KL',
  '33': 'TN', '34': 'PY', '35': 'AN', '36': 'TS', '37': 'AP', '38': 'LA',
}; // prettier-ignore

/** The house's status names, in ours. */
const STATUS: Record<string, PrintJobUpdate['status']> = {
  CREATED: 'submitted',
  UNPAID: 'submitted',
  PAYMENT_IN_PROGRESS: 'submitted',
  PRODUCTION_DELAYED: 'in_production',
  PRODUCTION_READY: 'in_production',
  IN_PRODUCTION: 'in_production',
  SHIPPED: 'shipped',
  REJECTED: 'rejected',
  CANCELED: 'cancelled',
};

export class PrintHouseError extends Error {
  override readonly name = 'PrintHouseError';
}

/** The job's body, as the house takes it. */
export function printJobBody(job: PrintJobRequest, settings: Pick<PrintHouseSettings, 'podPackageId' | 'shippingLevel' | 'contactEmail'>) {
  return {
    external_id: job.orderId,
    contact_email: settings.contactEmail,
    shipping_level: settings.shippingLevel ?? 'MAIL',
    shipping_address: {
      name: job.shipTo.name,
      street1: job.shipTo.line1,
      ...(job.shipTo.line2 ? { street2: job.shipTo.line2 } : {}),
      city: job.shipTo.city,
      ...(job.shipTo.state && ISO_STATE[job.shipTo.state] ? { state_code: ISO_STATE[job.shipTo.state] } : {}),
      country_code: job.shipTo.country,
      postcode: job.shipTo.zip,
      phone_number: job.shipTo.phone,
    },
    line_items: [
      {
        external_id: job.personaId,
        title: job.title,
        quantity: 1,
        printable_normalization: {
          pod_package_id: settings.podPackageId ?? DEFAULT_POD_PACKAGE,
          cover: { source_url: job.coverUrl },
          interior: { source_url: job.interiorUrl },
        },
      },
    ],
  };
}

/** The hexadecimal HMAC-SHA256 of a webhook's raw body under the API secret. */
export const webhookSignature = (secret: string, raw: Buffer | string) => createHmac('sha256', secret).update(raw).digest('hex');

export function printHouse(settings: PrintHouseSettings): PrintProvider {
  const base = settings.url.replace(/\/+$/, '');
  const timeoutMs = settings.timeoutMs ?? 15_000;
  let token: { value: string; until: number } | null = null;

  async function call(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new PrintHouseError(`the print house did not answer ${path}: ${(err as Error).message}`);
    }
  }

  async function accessToken(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const res = await call('/auth/realms/glasstree/protocol/openid-connect/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${settings.clientKey}:${settings.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    if (!res.ok) throw new PrintHouseError(`the print house refused the shop's credentials (${res.status})`);
    const answer = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!answer.access_token) throw new PrintHouseError('the print house gave no access token');
    // Kept until a minute before it expires.
    token = { value: answer.access_token, until: Date.now() + Math.max(0, (answer.expires_in ?? 300) - 60) * 1000 };
    return token.value;
  }

  return {
    name: 'print-house',
    async submit(job) {
      const res = await call('/print-jobs/', {
        method: 'POST',
        headers: { authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json' },
        body: JSON.stringify(printJobBody(job, settings)),
      });
      if (res.status === 401) token = null;
      if (!res.ok) {
        const detail = (await res.text()).slice(0, 500);
        throw new PrintHouseError(`the print house refused the job (${res.status}): ${detail}`);
      }
      const created = (await res.json()) as { id?: number | string };
      if (created.id === undefined) throw new PrintHouseError('the print house answered without a job id');
      return { jobId: String(created.id) };
    },
    readWebhook(raw, headers) {
      const given = headers[SIGNATURE_HEADER];
      const signature = Array.isArray(given) ? given[0] : given;
      if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return null;
      const expected = Buffer.from(webhookSignature(settings.clientSecret, raw), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(signature.toLowerCase(), 'hex'))) return null;
      let body: {
        topic?: string;
        data?: {
          id?: number | string;
          external_id?: string;
          status?: { name?: string; messages?: { info?: string; error?: string } };
          line_items?: Array<{ tracking_id?: string; tracking_urls?: string[]; carrier_name?: string }>;
        };
      };
      try {
        body = secureJson.parse(raw.toString('utf8'), undefined, { protoAction: 'error', constructorAction: 'error' });
      } catch {
        return 'not-a-job-update';
      }
      const data = body?.data;
      const status = STATUS[data?.status?.name ?? ''];
      if (body?.topic !== 'PRINT_JOB_STATUS_CHANGED' || !data || data.id === undefined || !status) return 'not-a-job-update';
      const item = data.line_items?.find((i) => i.tracking_id || i.carrier_name);
      return {
        jobId: String(data.id),
        orderId: typeof data.external_id === 'string' ? data.external_id : null,
        status,
        detail: [data.status?.name, data.status?.messages?.error ?? data.status?.messages?.info].filter(Boolean).join(': '),
        ...(item?.carrier_name ? { carrier: item.carrier_name.slice(0, 60) } : {}),
        ...(item?.tracking_id ? { trackingNumber: item.tracking_id.slice(0, 60) } : {}),
      };
    },
  };
}
