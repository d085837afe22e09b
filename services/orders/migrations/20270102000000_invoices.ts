// Orders schema v16: GST invoices and credit notes (issue 23, DESIGN §4). A document's number is
// consecutive within its series and financial year with no gap: it comes from a counter row per
// (series, financial year), incremented in the transaction that inserts the document, so a
// transaction that rolls back gives its number back. (A SEQUENCE would not: nextval is never
// rolled back, and a gap in invoice numbers is what a tax audit asks about.) A document keeps what
// it said when issued (seller, buyer, lines, totals) and is never deleted with its order.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invoice_counters')
    .addColumn('series', 'text', (c) => c.notNull().check(sql`series IN ('invoice', 'credit-note')`))
    .addColumn('financial_year', 'integer', (c) => c.notNull())
    .addColumn('last_number', 'integer', (c) => c.notNull().check(sql`last_number >= 1`))
    .addPrimaryKeyConstraint('invoice_counters_pkey', ['series', 'financial_year'])
    .execute();

  await db.schema
    .createTable('invoices')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('invoice', 'credit-note')`))
    .addColumn('number', 'text', (c) =>
      c
        .notNull()
        .unique()
        .check(sql`char_length(number) <= 16`),
    )
    // The year the financial year starts (2026: April 2026 to March 2027, IST) and the document's place in its series that year.
    .addColumn('financial_year', 'integer', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull().check(sql`sequence >= 1`))
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id'))
    .addColumn('issued_at', 'timestamptz', (c) => c.notNull())
    .addColumn('place_of_supply', 'text', (c) => c.notNull().check(sql`place_of_supply ~ '^[0-9]{2}$'`))
    .addColumn('supply_type', 'text', (c) => c.notNull().check(sql`supply_type IN ('intra-state', 'inter-state')`))
    .addColumn('seller', 'jsonb', (c) => c.notNull())
    .addColumn('buyer', 'jsonb', (c) => c.notNull())
    .addColumn('lines', 'jsonb', (c) => c.notNull())
    .addColumn('gross_paise', 'integer', (c) => c.notNull())
    .addColumn('discount_paise', 'integer', (c) => c.notNull())
    .addColumn('taxable_paise', 'integer', (c) => c.notNull())
    .addColumn('exempt_paise', 'integer', (c) => c.notNull())
    .addColumn('cgst_paise', 'integer', (c) => c.notNull())
    .addColumn('sgst_paise', 'integer', (c) => c.notNull())
    .addColumn('igst_paise', 'integer', (c) => c.notNull())
    .addColumn('total_paise', 'integer', (c) => c.notNull())
    // A credit note: the invoice it credits and the refund it records.
    .addColumn('credits_invoice_id', 'uuid', (c) => c.references('invoices.id'))
    .addColumn('refund_id', 'text')
    // Rendered after the number is taken, outside the counter's lock; deterministic from the row.
    .addColumn('pdf', 'bytea')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('invoices_totals_add_up', sql`taxable_paise + exempt_paise + cgst_paise + sgst_paise + igst_paise = total_paise`)
    .addCheckConstraint('invoices_discount_before_tax', sql`gross_paise - discount_paise = total_paise`)
    .addCheckConstraint('invoices_one_tax_kind', sql`(cgst_paise = 0 AND sgst_paise = 0) OR igst_paise = 0`)
    .addCheckConstraint(
      'invoices_credit_note_cites',
      sql`(kind = 'invoice' AND credits_invoice_id IS NULL AND refund_id IS NULL) OR (kind = 'credit-note' AND credits_invoice_id IS NOT NULL AND refund_id IS NOT NULL)`,
    )
    .addUniqueConstraint('invoices_series_sequence', ['kind', 'financial_year', 'sequence'])
    .execute();
  // One invoice per order, one credit note per refund: what makes issuing them idempotent.
  await sql`CREATE UNIQUE INDEX invoices_order_invoice_idx ON invoices (order_id) WHERE kind = 'invoice'`.execute(db);
  await sql`CREATE UNIQUE INDEX invoices_refund_idx ON invoices (refund_id) WHERE kind = 'credit-note'`.execute(db);
  await sql`CREATE INDEX invoices_order_idx ON invoices (order_id)`.execute(db);
  await sql`CREATE INDEX invoices_credits_idx ON invoices (credits_invoice_id) WHERE credits_invoice_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX invoices_issued_idx ON invoices (issued_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invoices').execute();
  await db.schema.dropTable('invoice_counters').execute();
}
