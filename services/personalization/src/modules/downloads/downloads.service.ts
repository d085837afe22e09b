// A Persona's downloads counted and bounded (issue 24). The id printed in every copy opens its
// downloads, so each format's downloads are counted and limited (`perFormat` each, within `days` of
// the Persona's making or of its last fresh allowance). Past the limit the id's holder may ask for
// more: a single-use link, valid `renewalHours`, goes to the buyer's address on the order (orders
// e-mails it on persona.download_renewal_requested); opening it gives a fresh allowance. The owner
// may give one (reset) or stop the downloads (revoke: the Persona stays genuine).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createEvent, type UnitOfWork } from '@persona/bus';
import { DOWNLOAD_REFUSALS, shopDate, type EventActor, type PersonaDownloads, type PersonaFormat } from '@persona/contracts';
import { HttpError } from '@persona/service-kit';
import type { Kysely } from 'kysely';
import type { PersonalizationDB } from '../../db';
import { formatPurchaseDate } from '../persona-print/format-date';
import type { PersonaRow } from '../personas/personas.repository';
import * as repo from './downloads.repository';

export interface DownloadLimits {
  /** Downloads of each format in one allowance. */
  perFormat: number;
  /** Days an allowance lasts. */
  days: number;
  /** Hours a renewal link stays valid. */
  renewalHours: number;
}

/** The limits unless configured (config.ts says why they are these). */
export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = { perFormat: 10, days: 365, renewalHours: 48 };

/** Renewal links one Persona may be sent a day: a visitor pressing the button again and again e-mails the buyer no more. */
export const RENEWALS_PER_DAY = 3;

const DAY = 86_400_000;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The formats a ready Persona has. */
const formatsOf = (row: PersonaRow): PersonaFormat[] => (row.epub_sha256 ? ['pdf', 'epub'] : ['pdf']);

const FORMAT_NAME: Record<PersonaFormat, string> = { pdf: 'PDF', epub: 'EPUB' };
const longDate = (at: Date) => formatPurchaseDate(shopDate(at));
const times = (n: number) => (n === 1 ? 'once' : `${n} times`);

/** What a Persona's id may still download, from its rows: pure, so the route and the tests read the same rules. */
export function downloadState(
  row: PersonaRow,
  allowance: repo.AllowanceRow | undefined,
  counts: readonly repo.DownloadCountRow[],
  limits: DownloadLimits,
  now: Date,
): PersonaDownloads {
  const startsAt = allowance?.starts_at ?? row.ready_at ?? row.created_at;
  const until = new Date(startsAt.getTime() + limits.days * DAY);
  const status: PersonaDownloads['status'] = row.licence_end
    ? 'ended'
    : allowance?.revoked_at
      ? 'revoked'
      : now.getTime() > until.getTime()
        ? 'expired'
        : 'open';
  return {
    personaId: row.persona_id,
    status,
    until: until.toISOString(),
    revokedAt: allowance?.revoked_at ? allowance.revoked_at.toISOString() : null,
    formats: formatsOf(row).map((format) => {
      const count = counts.find((c) => c.format === format);
      const used = count?.used ?? 0;
      return {
        format,
        used,
        limit: limits.perFormat,
        left: status === 'open' ? Math.max(0, limits.perFormat - used) : 0,
        total: count?.total ?? 0,
        lastAt: count ? count.last_at.toISOString() : null,
      };
    }),
  };
}

/** Why `format` may not be downloaded now, as the 403 its holder reads (the reason in `code`); null when it may. */
export function downloadRefusal(state: PersonaDownloads, format: PersonaFormat): HttpError | null {
  if (state.status === 'revoked')
    return new HttpError(
      403,
      "The shop has stopped this Persona's downloads. It is still a genuine Persona; write to us if you think this is a mistake",
      DOWNLOAD_REFUSALS.revoked,
    );
  if (state.status === 'expired')
    return new HttpError(
      403,
      `This Persona's downloads ended on ${longDate(new Date(state.until))}: you can ask for more downloads on its page`,
      DOWNLOAD_REFUSALS.expired,
    );
  const count = state.formats.find((f) => f.format === format);
  if (count && count.left === 0) return limitReached(format, count.limit);
  return null;
}

const limitReached = (format: PersonaFormat, limit: number) =>
  new HttpError(
    403,
    `This Persona's ${FORMAT_NAME[format]} has been downloaded ${times(limit)}, the most it may be: you can ask for more downloads on its page`,
    DOWNLOAD_REFUSALS.limit,
  );

export async function readDownloads(db: Kysely<PersonalizationDB>, row: PersonaRow, limits: DownloadLimits, now = new Date()): Promise<PersonaDownloads> {
  const [allowance, counts] = await Promise.all([repo.allowanceOf(db, row.persona_id), repo.countsOf(db, row.persona_id)]);
  return downloadState(row, allowance, counts, limits, now);
}

/**
 * Counts one download of `format` as its file starts to stream, or throws the refusal. The
 * allowance's days and revocation are read first; the count itself is checked and raised in one
 * statement (downloads.repository's countDownload), so parallel requests never pass the limit.
 */
export async function countDownload(db: Kysely<PersonalizationDB>, row: PersonaRow, format: PersonaFormat, limits: DownloadLimits): Promise<void> {
  const refused = downloadRefusal(await readDownloads(db, row, limits), format);
  if (refused) throw refused;
  if (!(await repo.countDownload(db, row.persona_id, format, limits.perFormat))) throw limitReached(format, limits.perFormat);
}

/**
 * The id's holder found the downloads used up (a format, or the days) and asks for more: a link is
 * recorded and announced for orders to e-mail to the buyer, at most RENEWALS_PER_DAY a day.
 */
export async function askForMoreDownloads(
  uow: UnitOfWork<PersonalizationDB>,
  row: PersonaRow,
  limits: DownloadLimits,
  correlationId: string,
  now = new Date(),
): Promise<void> {
  await uow.run(async ({ trx, emit }) => {
    const state = downloadState(row, await repo.allowanceOf(trx, row.persona_id), await repo.countsOf(trx, row.persona_id), limits, now);
    if (state.status === 'revoked') throw downloadRefusal(state, 'pdf')!;
    if (state.status === 'open' && state.formats.every((f) => f.left > 0))
      throw new HttpError(409, 'This Persona still has downloads left: download it from its page', 'DOWNLOADS_LEFT');
    if ((await repo.renewalsSince(trx, row.persona_id, new Date(now.getTime() - DAY))) >= RENEWALS_PER_DAY)
      throw new HttpError(
        429,
        "We've already e-mailed the buyer a link for more downloads several times today: please use the latest one, or ask again tomorrow",
        'RENEWALS_PER_DAY',
      );
    const token = randomBytes(32).toString('base64url');
    const renewal = {
      id: randomUUID(),
      hash: hashOf(token),
      personaId: row.persona_id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + limits.renewalHours * 3_600_000),
    };
    await repo.insertRenewal(trx, renewal);
    const used = Math.max(...state.formats.map((f) => f.used));
    await emit(
      createEvent(
        'persona.download_renewal_requested',
        {
          personaId: row.persona_id,
          orderId: row.order_id,
          renewalId: renewal.id,
          token,
          expiresAt: renewal.expiresAt.toISOString(),
          used,
          limit: limits.perFormat,
        },
        { correlationId },
      ),
    );
  });
}

/** Opens a renewal link: once, before it expires, and only while the owner has not stopped the downloads; a fresh allowance. */
export async function renewDownloads(db: Kysely<PersonalizationDB>, row: PersonaRow, token: string, limits: DownloadLimits): Promise<PersonaDownloads> {
  return db.transaction().execute(async (trx) => {
    if (!(await repo.useRenewal(trx, row.persona_id, hashOf(token))))
      throw new HttpError(410, 'This link has expired or was already used: ask for more downloads again on this page', 'RENEWAL_LINK_CLOSED');
    const allowance = await repo.allowanceOf(trx, row.persona_id);
    // Thrown inside the transaction: the link stays unused.
    if (allowance?.revoked_at) throw downloadRefusal(downloadState(row, allowance, [], limits, new Date()), 'pdf')!;
    const now = new Date();
    await repo.startAllowance(trx, row.persona_id, now);
    return downloadState(row, await repo.allowanceOf(trx, row.persona_id), await repo.countsOf(trx, row.persona_id), limits, now);
  });
}

/** The owner's fresh allowance (`reset`) or stop (`revoke`), with its audit event naming the administrator and why. */
export async function changeDownloads(
  uow: UnitOfWork<PersonalizationDB>,
  row: PersonaRow,
  change: 'reset' | 'revoke',
  reason: string,
  limits: DownloadLimits,
  origin: { correlationId: string; actor?: EventActor },
): Promise<PersonaDownloads> {
  return uow.run(async ({ trx, emit }) => {
    const now = new Date();
    if (change === 'reset') await repo.startAllowance(trx, row.persona_id, now);
    else await repo.revokeAllowance(trx, row.persona_id, now);
    await emit(
      createEvent(
        change === 'reset' ? 'persona.downloads_reset' : 'persona.downloads_revoked',
        { personaId: row.persona_id, orderId: row.order_id, reason: reason.trim() },
        origin,
      ),
    );
    return downloadState(row, await repo.allowanceOf(trx, row.persona_id), await repo.countsOf(trx, row.persona_id), limits, now);
  });
}
