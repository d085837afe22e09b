// GST invoices in the database (issue 23): numbers consecutive within the financial year with no
// gap, even when 30 payments issue invoices at once and some of their transactions roll back;
// the count starting again at 1 on 1 April in India; one invoice per order and one credit note
// per refund, however often asked; credit notes citing their invoice and never crediting more
// than it charged; an order's documents, a month's by India's calendar, and their PDFs.
import { randomBytes } from 'node:crypto';
import { formatPersonaId } from '@persona/contracts';
import { sql, type Kysely, type Transaction } from '@persona/db';
import { describeWithPostgres } from '@persona/test-kit';
import type { OrdersDB } from '../../../src/db';
import { renderInvoicePdf } from '../../../src/modules/invoices/invoice-pdf';
import {
  findInvoice,
  findInvoicePdf,
  findInvoicesOfOrder,
  findInvoicesWithoutPdf,
  invoicesOfMonth,
  issueCreditNote,
  issueInvoice,
  saveInvoicePdf,
  type IssueInvoiceInput,
} from '../../../src/modules/invoices/invoices.repository';
import { apportionRefund } from '../../../src/modules/invoices/tax';
import { BOOK, startOrdersHarness, type OrdersHarness } from '../../support';
import { DIGITAL_ORDER, KARNATAKA_BUYER, KERALA_BUYER, MIXED_ORDER, SELLER, taxOf } from './fixtures';

class Rollback extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  let db: Kysely<OrdersDB>;
  beforeAll(async () => {
    h = await startOrdersHarness(kind);
    db = h.database.db;
  });
  afterAll(() => h.close());

  /** A paid order of a digital copy, as checkout and payment leave one. */
  async function paidOrder(): Promise<string> {
    const row = await db
      .insertInto('orders')
      .values({
        persona_id: formatPersonaId(randomBytes(10)),
        book_id: BOOK.id,
        book_title: BOOK.title,
        book_author: BOOK.author,
        full_name: KERALA_BUYER.name,
        email: 'anaswara@example.com',
        phone: '+91 98765 43210',
        delivery_type: 'digital',
        address: null,
        base_paise: 129625,
        printing_paise: 0,
        delivery_paise: 0,
        amount_paise: 119625,
        idempotency_key: null,
        request_hash: null,
        payment_status: 'paid',
        paid_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const invoiceInput = (orderId: string, issuedAt: Date, over: Partial<IssueInvoiceInput> = {}): IssueInvoiceInput => ({
    orderId,
    issuedAt,
    seller: SELLER,
    buyer: KERALA_BUYER,
    tax: taxOf(DIGITAL_ORDER, '32'),
    ...over,
  });
  const issue = (orderId: string, issuedAt: Date, over: Partial<IssueInvoiceInput> = {}) =>
    db.transaction().execute((trx) => issueInvoice(trx, invoiceInput(orderId, issuedAt, over)));
  const sequencesOfYear = async (financialYear: number, documentKind: 'invoice' | 'credit-note' = 'invoice') =>
    (
      await db
        .selectFrom('invoices')
        .select('sequence')
        .where('financial_year', '=', financialYear)
        .where('kind', '=', documentKind)
        .orderBy('sequence')
        .execute()
    ).map((row) => row.sequence);
  const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  it('numbers the first invoice of a financial year 1, keeps what it said, and gives an order one invoice however often it is asked', async () => {
    const orderId = await paidOrder();
    const issuedAt = new Date('2026-06-15T09:00:00Z');
    const first = await issue(orderId, issuedAt);
    expect(first).toMatchObject({
      kind: 'invoice',
      number: 'PB/26-27/000001',
      financialYear: 2026,
      sequence: 1,
      orderId,
      issuedAt,
      placeOfSupply: '32',
      supplyType: 'inter-state',
      seller: SELLER,
      buyer: KERALA_BUYER,
      credits: null,
      refundId: null,
    });
    expect(first.lines).toEqual(taxOf(DIGITAL_ORDER, '32').lines);
    expect(first.totals).toEqual({
      grossPaise: 129625,
      discountPaise: 10000,
      taxablePaise: 113929,
      exemptPaise: 0,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 5696,
      totalPaise: 119625,
    });
    expect(await findInvoice(db, first.id)).toEqual(first);

    // Asked again (a webhook after the verify), even with other content: the same invoice, no number taken.
    const again = await issue(orderId, new Date('2026-06-16T09:00:00Z'), { buyer: KARNATAKA_BUYER, tax: taxOf(MIXED_ORDER, '29') });
    expect(again).toEqual(first);
    expect((await issue(await paidOrder(), issuedAt)).number).toBe('PB/26-27/000002');
    expect(await sequencesOfYear(2026)).toEqual([1, 2]);
  });

  it('keeps numbers consecutive with no gap when 30 payments issue invoices at once and a third of their transactions roll back', async () => {
    const orders = await Promise.all(Array.from({ length: 30 }, () => paidOrder()));
    const issuedAt = new Date('2030-08-01T10:00:00Z');
    const outcomes = await Promise.allSettled(
      orders.map((orderId, i) =>
        db.transaction().execute(async (trx) => {
          const invoice = await issueInvoice(trx, invoiceInput(orderId, issuedAt));
          // Whatever else the payment's transaction does, holding the year's counter meanwhile.
          await sleep((i * 7) % 13);
          if (i % 3 === 0) throw new Rollback(`payment ${i} failed after its invoice: ${invoice.number}`);
          return invoice;
        }),
      ),
    );

    const committed = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const rolledBack = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as Error] : []));
    expect(rolledBack).toHaveLength(10);
    expect(rolledBack.every((error) => error instanceof Rollback)).toBe(true);
    expect(committed.map((invoice) => invoice.sequence).sort((a, b) => a - b)).toEqual(oneTo(20));
    expect(committed.map((invoice) => invoice.number).sort()).toEqual(oneTo(20).map((n) => `PB/30-31/${String(n).padStart(6, '0')}`));
    expect(await sequencesOfYear(2030)).toEqual(oneTo(20));
    const counter = await db
      .selectFrom('invoice_counters')
      .select('last_number')
      .where('series', '=', 'invoice')
      .where('financial_year', '=', 2030)
      .executeTakeFirstOrThrow();
    expect(counter.last_number).toBe(20);
    // A rolled-back transaction's number went to a payment that committed.
    const given = new Set(committed.map((invoice) => invoice.number));
    expect(rolledBack.some((error) => given.has(/PB\/30-31\/\d+/.exec(error.message)![0]))).toBe(true);
    // The orders whose transactions rolled back have no invoice; issuing theirs now continues the count.
    expect((await issue(orders[0]!, issuedAt)).sequence).toBe(21);
  });

  it('issues one invoice and takes one number when an order is confirmed by five payments at once', async () => {
    const orderId = await paidOrder();
    const issuedAt = new Date('2033-05-05T05:05:05Z');
    const invoices = await Promise.all(Array.from({ length: 5 }, () => issue(orderId, issuedAt)));
    expect(new Set(invoices.map((invoice) => invoice.id)).size).toBe(1);
    expect(invoices[0]!.number).toBe('PB/33-34/000001');
    expect((await issue(await paidOrder(), issuedAt)).number).toBe('PB/33-34/000002');
  });

  it('starts again at 1 in the next financial year, which begins at midnight in India', async () => {
    const lastOfYear = await issue(await paidOrder(), new Date('2032-03-31T18:29:59.999Z')); // 31 March, 23:59:59.999 IST
    const firstOfNext = await issue(await paidOrder(), new Date('2032-03-31T18:30:00.000Z')); // 1 April, 00:00 IST
    const stillMarchInUtc = await issue(await paidOrder(), new Date('2032-03-31T23:00:00.000Z'));
    expect(lastOfYear).toMatchObject({ number: 'PB/31-32/000001', financialYear: 2031 });
    expect(firstOfNext).toMatchObject({ number: 'PB/32-33/000001', financialYear: 2032 });
    expect(stillMarchInUtc).toMatchObject({ number: 'PB/32-33/000002', financialYear: 2032 });
  });

  it('credits an invoice with credit notes citing it, one per refund, numbered in a series of their own, never more than it charged', async () => {
    const orderId = await paidOrder();
    const invoice = await issue(orderId, new Date('2034-07-01T10:00:00Z'));
    const invoiceTax = taxOf(DIGITAL_ORDER, '32');
    const credit = (refundId: string, paise: number, over: { invoiceId?: string; tax?: ReturnType<typeof taxOf> } = {}) =>
      db.transaction().execute((trx) =>
        issueCreditNote(trx, {
          invoiceId: over.invoiceId ?? invoice.id,
          refundId,
          issuedAt: new Date('2034-07-10T10:00:00Z'),
          tax: over.tax ?? apportionRefund(invoiceTax, paise),
        }),
      );

    const first = await credit('rfnd_A', 50000);
    expect(first).toMatchObject({
      kind: 'credit-note',
      number: 'PBCN/34-35/00001',
      orderId,
      placeOfSupply: '32',
      seller: SELLER,
      buyer: KERALA_BUYER,
      credits: { id: invoice.id, number: invoice.number, issuedAt: invoice.issuedAt },
      refundId: 'rfnd_A',
    });
    expect(first.totals).toMatchObject({ totalPaise: 50000, taxablePaise: 47619, igstPaise: 2381 });
    // The refund's webhook and its poller both ask: one credit note.
    expect(await credit('rfnd_A', 50000)).toEqual(first);

    // ₹1,196.25 charged, ₹500 credited: ₹800 more is too much, and takes no number.
    await expect(credit('rfnd_B', 80000)).rejects.toThrow(/charged 119625 paise and 50000 are credited: a credit note of 80000 is too much/);
    const rest = await credit('rfnd_C', 69625);
    expect(rest.number).toBe('PBCN/34-35/00002');
    await expect(credit('rfnd_D', 1)).rejects.toThrow(/too much/);
    expect(await sequencesOfYear(2034, 'credit-note')).toEqual([1, 2]);

    const other = await issue(await paidOrder(), new Date('2034-07-02T10:00:00Z'));
    await expect(credit('rfnd_A', 100, { invoiceId: other.id })).rejects.toThrow(/already has a credit note for another invoice/);
    await expect(credit('rfnd_E', 100, { invoiceId: other.id, tax: apportionRefund(taxOf(DIGITAL_ORDER, '27'), 100) })).rejects.toThrow(/place of supply 32/);
    await expect(credit('rfnd_F', 100, { invoiceId: first.id })).rejects.toThrow(/no invoice .* to credit/);

    expect((await findInvoicesOfOrder(db, orderId)).map((doc) => doc.number)).toEqual(['PB/34-35/000001', 'PBCN/34-35/00001', 'PBCN/34-35/00002']);
  });

  it('finds the documents of a month by India’s calendar, each series in number order', async () => {
    const february = await issue(await paidOrder(), new Date('2036-01-31T19:00:00Z')); // 1 February, 00:30 IST
    const january = await issue(await paidOrder(), new Date('2036-01-31T18:00:00Z')); // 31 January, 23:30 IST
    const note = await db.transaction().execute((trx) =>
      issueCreditNote(trx, {
        invoiceId: january.id,
        refundId: 'rfnd_JAN',
        issuedAt: new Date('2036-02-02T10:00:00Z'),
        tax: apportionRefund(taxOf(DIGITAL_ORDER, '32'), 1000),
      }),
    );
    expect((await invoicesOfMonth(db, 2036, 1)).map((doc) => doc.number)).toEqual([january.number]);
    expect((await invoicesOfMonth(db, 2036, 2)).map((doc) => doc.number)).toEqual([february.number, note.number]);
    expect(note.credits?.number).toBe(january.number);
    // Both in the financial year 2035-36, numbered in the order they were issued.
    expect([february.number, january.number]).toEqual(['PB/35-36/000001', 'PB/35-36/000002']);
  });

  it('stores a document’s PDF once and gives the same bytes back', async () => {
    const invoice = await issue(await paidOrder(), new Date('2037-04-04T04:04:04Z'));
    expect(await findInvoicePdf(db, invoice.id)).toBeNull();
    expect((await findInvoicesWithoutPdf(db, 1000)).map((doc) => doc.id)).toContain(invoice.id);
    const pdf = await renderInvoicePdf(invoice);
    await saveInvoicePdf(db, invoice.id, pdf);
    await saveInvoicePdf(db, invoice.id, new Uint8Array([1, 2, 3]));
    const stored = await findInvoicePdf(db, invoice.id);
    expect(stored).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(stored!).equals(Buffer.from(pdf))).toBe(true);
    expect((await findInvoicesWithoutPdf(db, 1000)).map((doc) => doc.id)).not.toContain(invoice.id);
  });

  it('refuses to issue outside a transaction, for a missing order, or with a GSTIN that is not the seller’s state’s', async () => {
    const orderId = await paidOrder();
    const at = new Date('2038-06-01T00:00:00Z');
    await expect(issueInvoice(db as unknown as Transaction<OrdersDB>, invoiceInput(orderId, at))).rejects.toThrow(/inside a transaction/);
    await expect(issue('00000000-0000-4000-8000-000000000000', at)).rejects.toThrow(/no order/);
    await expect(issue(orderId, at, { seller: { ...SELLER, gstin: '29AAACP1234A1Z2' } })).rejects.toThrow(/not a valid GSTIN/);
    await expect(issue(orderId, at, { seller: { ...SELLER, gstin: '27AAPFU0939F1ZV' } })).rejects.toThrow(/computed for a seller in state 29/);
    expect(await sequencesOfYear(2038)).toEqual([]);
    // The database holds the same rules: numbers at most 16 characters, totals that add up.
    const row = await db.selectFrom('invoices').selectAll().where('kind', '=', 'invoice').limit(1).executeTakeFirstOrThrow();
    const copy = {
      ...row,
      id: undefined,
      order_id: orderId,
      financial_year: 2038,
      seller: JSON.stringify(row.seller),
      buyer: JSON.stringify(row.buyer),
      lines: JSON.stringify(row.lines),
    };
    await expect(
      db
        .insertInto('invoices')
        .values({ ...copy, number: 'PB/38-39/0000001X' })
        .execute(),
    ).rejects.toThrow(/check/i);
    await expect(
      db
        .insertInto('invoices')
        .values({ ...copy, number: 'PB/38-39/000001', igst_paise: row.igst_paise + 1 })
        .execute(),
    ).rejects.toThrow(/check/i);
    expect(Number((await sql<{ n: number }>`SELECT count(*) AS n FROM invoices WHERE financial_year = 2038`.execute(db)).rows[0]!.n)).toBe(0);
  });
}

describe('invoices on PGlite', () => contract('pglite'));
describeWithPostgres()('invoices on PostgreSQL', () => contract('postgres'));
