// The personalization schema as kysely sees it: the tables its migrations make (db.generated.ts,
// `node scripts/db-types.mjs`), narrowed where the code knows more than PostgreSQL's types say.
import type { Refine } from '@persona/db';
import type { ColumnType } from 'kysely';
import type { DB } from './db.generated';

export type PersonasTable = Refine<
  DB['personas'],
  {
    status: 'ready' | 'failed';
    /** The copy's 48-bit leak mark (bigint: a string from pg, a number from PGlite); null for a Persona made before marks. */
    mark: ColumnType<string | number | null, number | null | undefined, number | null>;
    /** Why its licence ended (issue 23): its order refunded in full, or replaced by a re-issue (`replaced_by`). */
    licence_end: 'refunded' | 'replaced' | null;
  }
>;

export type SigningKeysTable = DB['signing_keys'];

/** An order refunded in full (order.refunded_in_full): its Personas' licences end, those made later included. */
export type RefundedOrdersTable = DB['refunded_orders'];

/** A format's downloads of a Persona (issue 24): in the current allowance, and ever. */
export type PersonaDownloadsTable = Refine<DB['persona_downloads'], { format: 'pdf' | 'epub' }>;

/** When a Persona's current download allowance began (null: when it was made), and whether the owner stopped it. */
export type DownloadAllowancesTable = DB['download_allowances'];

/** A link e-mailed to the buyer for a fresh allowance: single use, until `expires_at`; its token kept only as a hash. */
export type DownloadRenewalsTable = DB['download_renewals'];

export type PersonalizationDB = Refine<DB, { personas: PersonasTable; persona_downloads: PersonaDownloadsTable }>;
