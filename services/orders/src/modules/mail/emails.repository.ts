// The e-mails the shop owes its buyers: queued in the transaction that makes them due (once per
// order and kind), claimed by a mail relay for a lease before it sends them, so relays in several
// orders processes never send one twice, and one that dies mid-send hands its claim on when it expires.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { EmailsTable, OrdersDB } from '../../db';

export type EmailRow = Selectable<EmailsTable>;

/**
 * One of each per order, ever: the payment's confirmation, the Persona being ready, a gift's Persona
 * to its recipient (on its day), the Persona's having failed (to its buyer), and a printed copy
 * shipped, delivered or cancelled; one per failure: the shop's own alert that a paid Persona
 * failed; and a library sign-in link (no order, one per request).
 */
export type EmailKind =
  | 'order-confirmed'
  | 'persona-ready'
  | 'gift-delivery'
  | 'persona-failed'
  | 'persona-failed-alert'
  | 'shipped'
  | 'delivered'
  | 'cancelled'
  | 'library-link'
  | 'refund-processed'
  /** A link for more downloads, to the buyer (one per request: its occasion is the renewal's id). */
  | 'download-renewal'
  /** The shop's answer to a visitor's message (no order; one per message: its occasion is the message's id). */
  | 'feedback-answer';

export interface DueEmail {
  /** Null for an e-mail about no order. */
  orderId: string | null;
  kind: EmailKind;
  to: string;
  subject: string;
  text: string;
  html: string;
  correlationId: string | null;
  /** Not sent before (a gift's delivery day); absent: as soon as possible. */
  sendAfter?: Date;
  /**
   * For an e-mail an order may owe more than once, what made this one due (the shop's alert: the
   * persona.failed event's id); absent: the order's only e-mail of its kind.
   */
  occasion?: string;
}

/**
 * What every e-mail needs to know of the shop: its address for links, and its own address, where
 * buyers write (SUPPORT_EMAIL) and where the shop's alerts to itself go.
 */
export interface ShopMail {
  publicUrl: string;
  supportEmail: string;
}

/** Tries per e-mail before the relay stops trying (the row stays, with its last error, for an operator). */
export const MAX_EMAIL_ATTEMPTS = 10;

/** Queues the e-mail unless the order already has one of its kind (for the same occasion). */
export async function queueEmail(db: Kysely<OrdersDB> | Transaction<OrdersDB>, email: DueEmail): Promise<void> {
  await db
    .insertInto('emails')
    .values({
      order_id: email.orderId,
      kind: email.kind,
      to_address: email.to,
      subject: email.subject,
      text_body: email.text,
      html_body: email.html,
      correlation_id: email.correlationId || null,
      send_after: email.sendAfter ?? null,
      occasion: email.occasion ?? '',
    })
    .onConflict((oc) => oc.columns(['order_id', 'kind', 'occasion']).doNothing())
    .execute();
}

/**
 * Drops the order's e-mails of these kinds not yet sent (and not being sent: no relay holds them)
 * but for the `keep` occasion: what they say is no longer true (a re-issued Persona's old links).
 */
export async function dropUnsentEmails(db: Kysely<OrdersDB> | Transaction<OrdersDB>, orderId: string, kinds: EmailKind[], keep: string): Promise<void> {
  await db
    .deleteFrom('emails')
    .where('order_id', '=', orderId)
    .where('kind', 'in', kinds)
    .where('occasion', '<>', keep)
    .where('sent_at', 'is', null)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', sql<Date>`now()`)]))
    .execute();
}

/**
 * Withdraws one e-mail before it goes: deleted when not sent and held by no relay (a relay that
 * claimed it is sending it). Whether it was withdrawn; a claim made meanwhile wins (the delete
 * re-reads the row it waited for).
 */
export async function withdrawUnsentEmail(db: Kysely<OrdersDB> | Transaction<OrdersDB>, id: string): Promise<boolean> {
  const gone = await db
    .deleteFrom('emails')
    .where('id', '=', id)
    .where('sent_at', 'is', null)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', sql<Date>`now()`)]))
    .returning('id')
    .executeTakeFirst();
  return Boolean(gone);
}

/** A relay's hold on the e-mails it claimed: their rows, and the token the claim was made under. */
export interface EmailClaim {
  token: string;
  emails: EmailRow[];
}

/**
 * Claims up to `limit` unsent e-mails nobody holds and whose time has come at `now`, oldest first,
 * for `leaseMs`, under a token of this claim's own. Rows another relay is claiming at this moment
 * are skipped, not waited for.
 */
export async function claimUnsent(db: Kysely<OrdersDB>, limit: number, leaseMs: number, now: Date = new Date()): Promise<EmailClaim> {
  const token = randomUUID();
  const { rows } = await sql<EmailRow>`
    UPDATE emails SET claimed_until = now() + make_interval(secs => ${leaseMs / 1000}), claim_token = ${token}
    WHERE id IN (
      SELECT id FROM emails
      WHERE sent_at IS NULL AND attempts < ${MAX_EMAIL_ATTEMPTS} AND (claimed_until IS NULL OR claimed_until < now())
        AND (send_after IS NULL OR send_after <= ${now})
      ORDER BY created_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING *`.execute(db);
  return { token, emails: rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime()) };
}

/**
 * Checks, just before sending, that the claim still holds the e-mail (its lease not run out and
 * taken over, the e-mail not withdrawn or sent) and renews its lease for `leaseMs`; false: leave it.
 */
export async function holdClaim(db: Kysely<OrdersDB>, id: string, token: string, leaseMs: number): Promise<boolean> {
  const held = await db
    .updateTable('emails')
    .set({ claimed_until: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .where('sent_at', 'is', null)
    .where('claimed_until', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();
  return Boolean(held);
}

/** Records the e-mail sent, under the claim that sent it. */
export async function markSent(db: Kysely<OrdersDB>, id: string, token: string): Promise<void> {
  await db
    .updateTable('emails')
    .set({ sent_at: sql`now()`, attempts: sql`attempts + 1`, claimed_until: null, claim_token: null })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .execute();
}

/** Records a failed try under the claim that tried; the e-mail is tried again once `retryInMs` has passed. */
export async function markFailed(db: Kysely<OrdersDB>, id: string, token: string, error: string, retryInMs: number): Promise<void> {
  await db
    .updateTable('emails')
    .set({ attempts: sql`attempts + 1`, last_error: error, claimed_until: sql`now() + make_interval(secs => ${retryInMs / 1000})`, claim_token: null })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .execute();
}
