// Sends the e-mails queued in the `emails` table. With SMTP_URL it speaks
// SMTP; without, each message is written as <id>.eml under the mail folder
// (same id, same file: a resend after a crash overwrites, never duplicates).
// Each round claims its e-mails first (emails.repository), so several orders
// processes may run a relay each; just before each send it checks that its
// claim still holds the e-mail and renews the lease (a batch slower than its
// lease loses to the relay that took it over instead of sending it again), and
// keeps renewing it while the send lasts (a slow SMTP server never lets a second
// relay send the same e-mail); a failed send is tried again later, each time
// after a longer wait.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import { backgroundRounds, type Logger } from '@persona/service-kit';
import type { OrdersDB } from '../../db';
import { claimUnsent, holdClaim, markFailed, markSent } from './emails.repository';

/** E-mails one round claims, and how long it holds each (renewed before each send). */
const BATCH = 20;
const LEASE_MS = 30_000;
/** The wait before the n-th retry of a failed send: 5 s, 10 s, 20 s … capped at an hour. */
export const retryDelayMs = (attempts: number) => Math.min(5000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

export interface MailOptions {
  smtpUrl?: string;
  dir: string;
  from: string;
  /** The relay's clock for scheduled e-mails (a gift's day); the machine's unless a test sets one. */
  now?: () => Date;
  /** How long a claim holds an e-mail before another relay may take it (LEASE_MS; tests shorten it). */
  leaseMs?: number;
  /** The transport to send with (tests: a slow one); else SMTP_URL's, or files. */
  transport?: Transporter;
}

export interface MailRelay {
  start(): void;
  nudge(): void;
  /** Sends everything pending now, however many rounds it takes (tests, shutdown). */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

export function createMailRelay(db: Kysely<OrdersDB>, options: MailOptions, logger: Logger, pollMs = 5000): MailRelay {
  const transport: Transporter =
    options.transport ??
    (options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const writesFiles = !options.smtpUrl && !options.transport;

  async function sendPending(): Promise<number> {
    const claim = await claimUnsent(db, BATCH, leaseMs, options.now?.() ?? new Date());
    let sent = 0;
    for (const email of claim.emails) {
      const log = logger.child({ emailId: email.id, orderId: email.order_id, ...(email.correlation_id ? { correlationId: email.correlation_id } : {}) });
      // The lease may have run out while the e-mails before this one went: another relay has it now.
      if (!(await holdClaim(db, email.id, claim.token, leaseMs))) {
        log.warn('e-mail left: its claim ran out and another relay holds it, or it was withdrawn');
        continue;
      }
      // An SMTP server slower than the lease must not let another relay take this e-mail while it
      // is being sent: the lease is renewed every third of it until the send is over. (A relay that
      // dies mid-send stops renewing; the one taking over sends it again with the same Message-ID.)
      const heartbeat = setInterval(() => void holdClaim(db, email.id, claim.token, leaseMs).catch(() => undefined), Math.max(200, leaseMs / 3));
      try {
        const info = await transport.sendMail({
          from: options.from,
          to: email.to_address,
          subject: email.subject,
          text: email.text_body,
          ...(email.html_body ? { html: email.html_body } : {}),
          messageId: `<${email.id}@persona-books>`,
          date: email.send_after ?? email.created_at,
        });
        if (writesFiles) {
          await mkdir(options.dir, { recursive: true });
          const file = path.join(options.dir, `${email.id}.eml`);
          await writeFile(file, (info as unknown as { message: Buffer }).message);
          log.info({ file, to: email.to_address, subject: email.subject }, 'e-mail written (no SMTP_URL configured)');
        } else {
          log.info({ to: email.to_address, subject: email.subject }, 'e-mail sent');
        }
        await markSent(db, email.id, claim.token);
        sent += 1;
      } catch (err) {
        log.warn({ err }, 'e-mail not sent; will retry');
        await markFailed(db, email.id, claim.token, String((err as Error).message), retryDelayMs(email.attempts + 1));
      } finally {
        clearInterval(heartbeat);
      }
    }
    return sent;
  }

  const rounds = backgroundRounds(sendPending, { pollMs, logger, what: 'mail relay' });
  return {
    start: () => rounds.start(),
    nudge: () => rounds.nudge(),
    drain: () => rounds.drain(),
    async stop() {
      await rounds.stop();
      transport.close();
    },
  };
}
