// Personas on the wire: lookup, verification, the shop's public key (DESIGN §5, §6).
import { Type, type Static } from '@sinclair/typebox';
import { Id } from './common';
import { PERSONA_ID_PATTERN } from './persona-id';
import { LogKey, PersonaLogPlace } from './persona-log';

/** Accepts what a person may type; the service normalises it. */
export const PersonaIdParams = Type.Object({ personaId: Type.String({ minLength: 16, maxLength: 40 }) }, { additionalProperties: false });
export type PersonaIdParams = Static<typeof PersonaIdParams>;

export const PersonaIdString = Type.String({ pattern: PERSONA_ID_PATTERN });

/**
 * What a Persona is made of, as its order tells it: the facts printed in the copy, a gift's giver
 * and message included. Persona records signed before issue 24 were exactly this
 * (PersonaSignedRecordV1); since then the giver and the message are signed only as salted hashes.
 */
export interface PersonaDetails {
  personaId: string;
  bookId: string;
  title: string;
  author: string;
  buyerName: string;
  /** YYYY-MM-DD in India time (the date printed in the book). */
  purchaseDate: string;
  /** A gift's recipient, printed instead of the buyer (DESIGN §12); absent when not a gift. */
  recipientName?: string;
  /** A gift's message, printed on the dedication page; absent when none. */
  message?: string;
}

/**
 * A record signed before issue 24, serialised as canonical JSON (keys sorted): it names a gift's
 * buyer and message in the clear, so its JSON is never shown by the public verify answer.
 */
export type PersonaSignedRecordV1 = PersonaDetails;

/**
 * The record signed since issue 24 (canonical JSON, keys sorted): only what the copy prints for all
 * to see, and a commitment to each private detail — SHA-256, in hexadecimal, of the detail's salt
 * (32 hexadecimal digits, kept by the shop and printed in the copy's colophon) followed by the
 * detail itself, as UTF-8 text. Anyone can check the signature from the public verify answer; only
 * the holder of the file, who has the salts, can check a giver's name or a message against it.
 */
export interface PersonaSignedRecordV2 {
  v: 2;
  personaId: string;
  bookId: string;
  title: string;
  author: string;
  /** The name printed in the copy: a gift's recipient, else the buyer. */
  name: string;
  purchaseDate: string;
  /** A gift: its buyer's name, salted and hashed; absent when not a gift. */
  buyerNameHash?: string;
  /** A gift's message, salted and hashed; absent when none. */
  messageHash?: string;
}

export type PersonaSignedRecord = PersonaSignedRecordV1 | PersonaSignedRecordV2;

/** The salts of a Persona's private details (32 hexadecimal digits each), one for each it has. */
export interface PersonaSalts {
  buyerName?: string;
  message?: string;
}

export const PersonaVerification = Type.Object({
  personaId: Type.String(),
  /** The stored record's signature holds under the shop's public key. */
  valid: Type.Boolean(),
  title: Type.String(),
  author: Type.String(),
  /**
   * The name printed in the copy: a gift's recipient, else the buyer. A gift's buyer and message
   * are never answered here (anyone holding the id, printed on every page, may ask).
   */
  name: Type.String(),
  purchaseDate: Type.String(),
  /** Whether the copy was a gift: its giver and message stay private. */
  gift: Type.Boolean(),
  /**
   * The signed record as canonical JSON (PersonaSignedRecordV2), so the signature can be checked
   * against the public key by anyone; null for a gift signed before issue 24, whose record named
   * its giver and message (its validity is still checked, and answered in `valid`).
   */
  record: Type.Union([Type.String(), Type.Null()]),
  sha256: Type.String(),
  signature: Type.String(),
  keyId: Type.String(),
  /** Its number among its book's Personas ("copy 37"), printed in it; null for one not numbered. */
  copy: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  /** Its entry in the shop's public log (issue 27): null until the log's writer has appended it (within a minute). */
  log: Type.Union([PersonaLogPlace, Type.Null()]),
  /**
   * Whether its licence holds (issue 23). A Persona whose order was refunded in full, or that was
   * replaced by a re-issue, stays genuine (its signature holds) but downloads no more.
   */
  licence: Type.Union([
    Type.Object({ status: Type.Literal('active') }),
    Type.Object({ status: Type.Literal('refunded'), endedAt: Type.String({ format: 'date-time' }) }),
    Type.Object({ status: Type.Literal('replaced'), endedAt: Type.String({ format: 'date-time' }), replacedBy: Type.String() }),
  ]),
});
export type PersonaVerification = Static<typeof PersonaVerification>;

export const FileVerification = Type.Object({
  genuine: Type.Boolean(),
  personaId: Type.Union([Type.String(), Type.Null()]),
  reason: Type.String(),
});
export type FileVerification = Static<typeof FileVerification>;

/** The order a leaked copy was made for (POST /api/personas/leaks, admin only). */
export const LeakMatch = Type.Object({
  personaId: Type.String(),
  orderId: Type.String(),
  bookTitle: Type.String(),
  /** Who paid: for a gift, the buyer, not the recipient named in the copy. */
  buyerName: Type.String(),
  recipientName: Type.Union([Type.String(), Type.Null()]),
  /** The day the order was paid (YYYY-MM-DD, India time), the purchase date printed in the copy. */
  paidAt: Type.String(),
});
export type LeakMatch = Static<typeof LeakMatch>;

/** What a leak upload showed: the per-copy mark read from it, if any, and the Persona it belongs to. */
export const LeakFinding = Type.Object({
  format: Type.Union([Type.Literal('pdf'), Type.Literal('epub')]),
  /** The mark read (12 hexadecimal digits), or null when none could be read. */
  mark: Type.Union([Type.String(), Type.Null()]),
  match: Type.Union([LeakMatch, Type.Null()]),
  /** Where the mark was found, or why none was: one sentence for the administrator. */
  evidence: Type.String(),
});
export type LeakFinding = Static<typeof LeakFinding>;

/** The largest copy a leak upload may be. */
export const MAX_LEAK_UPLOAD_BYTES = 40 * 1024 * 1024;

export const PublicKey = Type.Object({
  algorithm: Type.Literal('Ed25519'),
  keyId: Type.String(),
  publicKeyPem: Type.String(),
  /** The public log of Personas and the key its checkpoints are signed with (issue 27). */
  log: LogKey,
});
export type PublicKey = Static<typeof PublicKey>;

/**
 * The catalogue's internal answer to the personalisation service: the text to
 * typeset, or that a full PDF exists (fetched from the `/pdf` route beside it).
 * Never routed by the gateway.
 */
export const BookSource = Type.Object({
  bookId: Type.String(),
  title: Type.String(),
  author: Type.String(),
  /** Issue 27: the book's description, the blurb on a printed Persona's back cover. */
  description: Type.Optional(Type.String()),
  paragraphs: Type.Array(Type.String()),
  hasFullPdf: Type.Boolean(),
  /** As readers name it ("English", "Bengali"): the EPUB's language. */
  language: Type.String(),
  /**
   * Issue 24: the book has a cover image, served as PNG or JPEG by `/internal/books/:id/cover`
   * (the Persona PDF's page 1, the EPUB's cover image).
   */
  hasCover: Type.Optional(Type.Boolean()),
  /**
   * Issue 24: the author's own signature image was uploaded with the book, served as PNG by
   * `/internal/books/:id/signature`; without it the dedication page says "Signed by Persona Books
   * for the author" and draws no signature.
   */
  hasAuthorSignature: Type.Optional(Type.Boolean()),
});
export type BookSource = Static<typeof BookSource>;

/** The files a Persona comes as: the PDF always; an EPUB too when its book is typeset from its text (not an uploaded PDF). */
export const PERSONA_FORMATS = ['pdf', 'epub'] as const;
export type PersonaFormat = (typeof PERSONA_FORMATS)[number];
export const PersonaFormatSchema = Type.Union([Type.Literal('pdf'), Type.Literal('epub')]);

/** `GET /api/personas/:personaId/download?format=pdf|epub` (PDF by default). */
export const PersonaDownloadQuery = Type.Object({ format: Type.Optional(PersonaFormatSchema) }, { additionalProperties: false });
export type PersonaDownloadQuery = Static<typeof PersonaDownloadQuery>;

/** A Persona's download in one format. */
export const personaDownloadUrl = (personaId: string, format: PersonaFormat) =>
  format === 'pdf' ? `/api/personas/${personaId}/download` : `/api/personas/${personaId}/download?format=${format}`;

/**
 * `POST /api/personas/preview` (DESIGN §12): the dedication page the Persona engine prints for this
 * name (and a gift's message), as a PNG. The printing rules (printable-text) are checked by the
 * service with their own messages; these bounds only stop a flood of text early.
 */
export const PersonaPreviewBody = Type.Object(
  {
    bookId: Id,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    message: Type.Optional(Type.String({ maxLength: 600 })),
  },
  { additionalProperties: false },
);
export type PersonaPreviewBody = Static<typeof PersonaPreviewBody>;

/** The preview image's width, pixels: sharp at the size the pages show it, on a dense screen. */
export const PERSONA_PREVIEW_WIDTH = 600;
