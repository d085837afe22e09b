// A Persona's downloads (issue 24): the id printed in every copy opens its downloads, so lending a
// printed book lends the e-book too; each download is counted per format, within a number per
// format and a number of days from the Persona's making (or its last fresh allowance). Past either,
// the download is refused with one of these reasons, and the buyer may ask for more by e-mail.
import { Type, type Static } from '@sinclair/typebox';
import { PersonaFormatSchema } from './personas';

/** Why a download was refused: the `code` of the download's 403. */
export const DOWNLOAD_REFUSALS = {
  /** This format was downloaded as often as its allowance lets. */
  limit: 'DOWNLOAD_LIMIT_REACHED',
  /** The allowance's days have passed. */
  expired: 'DOWNLOAD_PERIOD_OVER',
  /** The shop's owner stopped the Persona's downloads (it stays genuine). */
  revoked: 'DOWNLOADS_REVOKED',
} as const;
export type DownloadRefusal = (typeof DOWNLOAD_REFUSALS)[keyof typeof DOWNLOAD_REFUSALS];

/** One format's downloads: in this allowance (`used`, of `limit`, `left`), ever (`total`), and the last. */
export const FormatDownloads = Type.Object({
  format: PersonaFormatSchema,
  used: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 1 }),
  left: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
  lastAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type FormatDownloads = Static<typeof FormatDownloads>;

/**
 * `GET /api/personas/:personaId/downloads`: what the id's holder may still download. `status`:
 * `open` while the allowance holds (a format may still be used up: its `left` is 0), `expired`
 * after `until`, `revoked` by the owner, `ended` when the licence ended (refund or re-issue).
 */
export const PersonaDownloads = Type.Object({
  personaId: Type.String(),
  status: Type.Union([Type.Literal('open'), Type.Literal('expired'), Type.Literal('revoked'), Type.Literal('ended')]),
  /** The last moment of the allowance (its days from the Persona's making or its last renewal). */
  until: Type.String({ format: 'date-time' }),
  formats: Type.Array(FormatDownloads),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type PersonaDownloads = Static<typeof PersonaDownloads>;

/** `POST /api/personas/:personaId/downloads/renew`: the token of the link e-mailed to the buyer. */
export const DownloadRenewBody = Type.Object(
  { token: Type.String({ minLength: 20, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }) },
  { additionalProperties: false },
);
export type DownloadRenewBody = Static<typeof DownloadRenewBody>;

/** `POST /api/personas/:personaId/downloads/reset|revoke` (administrators): why, for the audit log. */
export const DownloadChangeBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }) }, { additionalProperties: false });
export type DownloadChangeBody = Static<typeof DownloadChangeBody>;

/** Where the renewal link opens: the Persona's page, the token in the fragment (never in an address a log keeps). */
export const downloadRenewalPath = (personaId: string, token: string) => `/send-persona?personaId=${personaId}#renew=${token}`;

/** The download buttons' names: "Download PDF", "Download EPUB". */
export const DOWNLOAD_LABELS = { pdf: 'Download PDF', epub: 'Download EPUB' } as const;
