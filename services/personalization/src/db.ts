import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface PersonasTable {
  persona_id: string;
  order_id: string;
  book_id: string;
  title: string;
  author: string;
  buyer_name: string;
  purchase_date: string;
  /** A gift's recipient (printed instead of the buyer) and message; null when not a gift. */
  recipient_name: ColumnType<string | null, string | null | undefined, string | null>;
  message: ColumnType<string | null, string | null | undefined, string | null>;
  status: 'ready' | 'failed';
  signature: string | null;
  key_id: string | null;
  sha256: string | null;
  /** The EPUB's SHA-256; null when the Persona is the PDF only. */
  epub_sha256: ColumnType<string | null, string | null | undefined, string | null>;
  /** The copy's 48-bit leak mark (bigint: a string from pg, a number from PGlite); null for a Persona made before marks. */
  mark: ColumnType<string | number | null, number | null | undefined, number | null>;
  pages: number | null;
  error: string | null;
  created_at: Timestamp;
  ready_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** When and why its licence ended (issue 23): its order refunded in full, or replaced by a re-issue (`replaced_by`). */
  licence_ended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  licence_end: ColumnType<'refunded' | 'replaced' | null, 'refunded' | 'replaced' | null | undefined, 'refunded' | 'replaced' | null>;
  replaced_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The version of the record its signature covers (issue 24): 1 names a gift's buyer and message, 2 only their salted hashes. */
  record_version: ColumnType<number, number | undefined, number>;
  /** Version 2: the salts of a gift's buyer name and message (PersonaSalts); null for what it does not have. */
  buyer_name_salt: ColumnType<string | null, string | null | undefined, string | null>;
  message_salt: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SigningKeysTable {
  key_id: string;
  private_pem: string;
  active: Generated<boolean>;
  created_at: Timestamp;
}

/** An order refunded in full (order.refunded_in_full): its Personas' licences end, those made later included. */
export interface RefundedOrdersTable {
  order_id: string;
  refunded_at: Date;
}

/** A format's downloads of a Persona (issue 24): in the current allowance, and ever. */
export interface PersonaDownloadsTable {
  persona_id: string;
  format: 'pdf' | 'epub';
  used: number;
  total: number;
  last_at: Timestamp;
}

/** When a Persona's current download allowance began (null: when it was made), and whether the owner stopped it. */
export interface DownloadAllowancesTable {
  persona_id: string;
  starts_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  updated_at: Timestamp;
}

/** A link e-mailed to the buyer for a fresh allowance: single use, until `expires_at`; its token kept only as a hash. */
export interface DownloadRenewalsTable {
  id: string;
  token_hash: string;
  persona_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface PersonalizationDB {
  personas: PersonasTable;
  persona_downloads: PersonaDownloadsTable;
  download_allowances: DownloadAllowancesTable;
  download_renewals: DownloadRenewalsTable;
  refunded_orders: RefundedOrdersTable;
  signing_keys: SigningKeysTable;
  outbox: any;
  inbox: any;
}
