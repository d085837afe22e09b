// Consumes every request to make a Persona, order.paid, persona.retry_requested
// and persona.reissue_requested (DESIGN §3, §5; issue 23): reads the book's source, signs the
// record, builds the PDF off the event loop, stores it, and records the
// Persona with persona.ready in one transaction through the inbox — so a
// redelivery (a crashed worker, a duplicate message) yields exactly one
// Persona. A re-issue's new Persona replaces the old one in that same
// transaction (the old one downloads no more only once the new one can). After the last attempt a failure is recorded as persona.failed and
// the message goes to the dead-letter queue.
import { createEvent, eventLogger, type EventContext, type EventBus, type KnownEvent, type Subscription, type UnitOfWork } from '@persona/bus';
import type { PersonaDetails, PersonaFormat } from '@persona/contracts';
import type { Logger } from '@persona/service-kit';
import type { Kysely } from 'kysely';
import type { PersonalizationDB } from '../../db';
import { UnreadableSourceError } from '../pdf-engine/build-persona-pdf';
import { leakMark, markSecret } from '../leak-mark/mark-code';
import { personaSalts, sha256Hex, signedRecordOf, signPersona, type SigningKey } from '../signing/persona-signature';
import type { SourceReader } from './book-source-client';
import { BuildPoolClosedError, type BuildPool } from '../build-pool/build-pool';
import { NO_PERSONA_METRICS, type PersonaMetrics } from './persona-metrics';
import type { PersonaFiles } from './persona-files';
import * as repo from './personas.repository';
import { claimCopyNumber } from './copy-numbers';
import { preflight } from '../print-files/preflight';
import { DEFAULT_PAPER, type PaperName } from '../print-files/print-specs';

export const PERSONALIZATION_QUEUE = 'personalization.orders';
export const MAX_ATTEMPTS = 5;
export const RETRY_DELAYS_MS = [1000, 5000, 15000, 30000];

export interface PersonalizeDeps {
  db: Kysely<PersonalizationDB>;
  key: SigningKey;
  readSource: SourceReader;
  buildPool: BuildPool;
  files: PersonaFiles;
  publicUrl: string;
  logger: Logger;
  /** Records a Persona (ready or failed) and its event as one transaction; the relay is woken after it commits. */
  uow: UnitOfWork<PersonalizationDB>;
  maxAttempts?: number;
  retryDelaysMs?: number[];
  metrics?: PersonaMetrics;
  /** The paper printed copies are on (PRINT_PAPER): the spine's width. */
  paper?: PaperName;
  /** Told when a Persona is recorded, ready or failed: the public log's writer appends it soon. */
  onRecorded?: () => void;
}

export const verifyUrl = (publicUrl: string, personaId: string) => `${publicUrl}/verify/${personaId}`;

/**
 * The requests to make a Persona: a paid order, an administrator's retry of a failed one (the same
 * payload), or their re-issue with corrected names (the same, and the Persona it replaces).
 */
export const PERSONA_REQUESTS = ['order.paid', 'persona.retry_requested', 'persona.reissue_requested'] as const;
export type PersonaRequestEvent = KnownEvent<(typeof PERSONA_REQUESTS)[number]>;

export async function personalize(deps: PersonalizeDeps, event: PersonaRequestEvent, ctx: EventContext): Promise<'ready' | 'already-ready'> {
  const order = event.payload;
  const metrics = deps.metrics ?? NO_PERSONA_METRICS;
  const log = eventLogger(deps.logger, event, { personaId: order.personaId, attempt: ctx.attempt });
  const existing = await repo.findPersona(deps.db, order.personaId);
  if (existing?.status === 'ready') {
    log.info({}, 'persona already made; nothing to do');
    return 'already-ready';
  }
  try {
    const book = await deps.readSource(order.bookId, event.correlationId);
    const record: PersonaDetails = {
      personaId: order.personaId,
      bookId: order.bookId,
      title: book.title,
      author: book.author,
      buyerName: order.buyerName,
      purchaseDate: order.purchaseDate,
      ...(order.gift ? { recipientName: order.gift.recipientName } : {}),
      ...(order.gift?.message ? { message: order.gift.message } : {}),
    };
    // Its number among the book's copies, taken now and printed in it (a re-issue keeps the one it replaces).
    const copyNo = await claimCopyNumber(deps.db, {
      personaId: order.personaId,
      bookId: order.bookId,
      ...(event.type === 'persona.reissue_requested' ? { replaces: event.payload.replacesPersonaId } : {}),
    });
    // Signed: what the copy shows everyone, and a gift's buyer and message only as salted hashes
    // (their salts kept with the Persona and printed in its colophon, for the holder of the file).
    const salts = personaSalts(record, deps.key.privateKey);
    const signature = signPersona(signedRecordOf(record, salts), deps.key);
    // The copy's leak mark: the same for every build of this Persona, recorded to find it again.
    const mark = leakMark(markSecret(deps.key.privateKey), record.personaId);
    const started = Date.now();
    log.info({ source: book.source.kind }, 'making persona');
    const building = Date.now();
    let pdf;
    try {
      pdf = await deps.buildPool.build(
        {
          record,
          salts,
          signature,
          keyId: deps.key.keyId,
          verifyUrl: verifyUrl(deps.publicUrl, order.personaId),
          source: book.source,
          mark,
          copyNo,
          ...(book.cover ? { cover: book.cover } : {}),
          ...(book.authorSignature ? { authorSignature: book.authorSignature } : {}),
          // A book typeset from its text is an EPUB too; an uploaded PDF is the PDF only.
          epub: { privateKey: deps.key.privateKey, language: book.language },
          // A printed copy: its interior and cover spread for the print house too (issue 27).
          ...(order.deliveryType === 'physical' ? { print: { blurb: book.description ?? '', paper: deps.paper ?? DEFAULT_PAPER } } : {}),
        },
        { log },
      );
      metrics.built((Date.now() - building) / 1000, 'ok');
    } catch (err) {
      if (!(err instanceof BuildPoolClosedError)) metrics.built((Date.now() - building) / 1000, 'error');
      throw err;
    }
    const sha256 = sha256Hex(pdf.bytes);
    const epubSha256 = pdf.epub ? sha256Hex(pdf.epub) : null;
    await deps.files.put(order.personaId, pdf.bytes);
    if (pdf.epub) await deps.files.put(order.personaId, pdf.epub, 'epub');
    // A printed copy's files, checked as a print house reads them: with a problem, they are kept for
    // the administrator to see and not sent to print.
    let print: { pages: number; spineInches: number; problems: string[] } | null = null;
    if (pdf.print) {
      const [interior, cover] = await Promise.all([
        preflight(pdf.print.interior, { kind: 'interior' }),
        preflight(pdf.print.cover, { kind: 'cover', spineInches: pdf.print.spineInches }),
      ]);
      await deps.files.putPrint(order.personaId, 'interior', pdf.print.interior);
      await deps.files.putPrint(order.personaId, 'cover', pdf.print.cover);
      print = {
        pages: pdf.print.pages,
        spineInches: pdf.print.spineInches,
        problems: [...interior.problems.map((p) => `interior: ${p}`), ...cover.problems.map((p) => `cover: ${p}`)],
      };
      if (print.problems.length > 0) log.warn({ problems: print.problems }, 'the print files did not pass the preflight');
    }
    const formats: PersonaFormat[] = pdf.epub ? ['pdf', 'epub'] : ['pdf'];
    let saved = false;
    await deps.uow.handleOnce('personalization', event, async ({ trx, emit }) => {
      saved = await repo.saveReady(trx, {
        persona_id: record.personaId,
        order_id: order.orderId,
        book_id: record.bookId,
        title: record.title,
        author: record.author,
        buyer_name: record.buyerName,
        purchase_date: record.purchaseDate,
        recipient_name: record.recipientName ?? null,
        message: record.message ?? null,
        signature,
        key_id: deps.key.keyId,
        sha256,
        epub_sha256: epubSha256,
        mark,
        pages: pdf.pages,
        record_version: 2,
        buyer_name_salt: salts.buyerName ?? null,
        message_salt: salts.message ?? null,
        print_pages: print?.pages ?? null,
        print_spine_in: print?.spineInches ?? null,
        print_problems: print ? JSON.stringify(print.problems) : null,
      });
      if (saved) {
        if (event.type === 'persona.reissue_requested') await repo.replacePersona(trx, event.payload.replacesPersonaId, record.personaId, new Date());
        await repo.endLicenceIfRefunded(trx, order.orderId, record.personaId);
        // A printed copy ready to print: the public log records it, after the copy itself.
        if (print && print.problems.length === 0) await repo.queueForLog(trx, [record.personaId], 'printed');
        await emit(
          createEvent(
            'persona.ready',
            {
              orderId: order.orderId,
              personaId: record.personaId,
              sha256,
              pages: pdf.pages,
              formats,
              ...(print ? { print: { ready: print.problems.length === 0, pages: print.pages, problems: print.problems } } : {}),
            },
            { correlationId: event.correlationId },
          ),
        );
      }
    });
    if (saved) {
      metrics.made();
      deps.onRecorded?.();
      log.info({ pages: pdf.pages, ms: Date.now() - started, pool: deps.buildPool.kind }, 'persona ready');
      return 'ready';
    }
    return 'already-ready';
  } catch (err) {
    if (err instanceof BuildPoolClosedError) {
      // Shutting down under this job: the message goes back to the queue and another instance makes it.
      log.info({}, 'persona interrupted by shutdown; its message is handed back');
      throw err;
    }
    const reason = err instanceof UnreadableSourceError ? `the book's source cannot be read: ${err.message}` : (err as Error).message;
    log.warn({ err }, 'persona not made');
    if (ctx.attempt >= (deps.maxAttempts ?? MAX_ATTEMPTS)) {
      const recorded = await deps.uow.run(async ({ trx, emit }) => {
        const saved = await repo.saveFailed(trx, {
          persona_id: order.personaId,
          order_id: order.orderId,
          book_id: order.bookId,
          title: '',
          author: '',
          buyer_name: order.buyerName,
          purchase_date: order.purchaseDate,
          error: reason,
        });
        if (saved)
          await emit(createEvent('persona.failed', { orderId: order.orderId, personaId: order.personaId, reason }, { correlationId: event.correlationId }));
        return saved;
      });
      if (recorded) {
        metrics.failed();
        deps.onRecorded?.();
        log.error({ attempts: ctx.attempt, reason }, 'persona failed after its last attempt');
      }
    }
    throw err;
  }
}

/** The consumer of every request to make a Persona. */
export function subscribePersonaRequests(bus: EventBus, deps: PersonalizeDeps): Promise<Subscription> {
  return bus.subscribe({
    queue: PERSONALIZATION_QUEUE,
    bindings: PERSONA_REQUESTS,
    prefetch: 2,
    maxAttempts: deps.maxAttempts ?? MAX_ATTEMPTS,
    retryDelaysMs: deps.retryDelaysMs ?? RETRY_DELAYS_MS,
    handler: async (event, ctx) => {
      await personalize(deps, event, ctx);
    },
  });
}
