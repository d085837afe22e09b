// Orders schema: the administrator's list counted by the shop's day (issue 26). Every order is
// counted in `order_list_counts` under its shop day (India) and the four statuses the list filters
// by, kept by statement triggers in the same transaction as the change, so a list with any of its
// filters has an exact total from a few thousand rows, and page 25,000 of a million orders is found
// by walking the days to the one it starts in, then a few hundred rows of that day (never an OFFSET
// through the rows before it). `slot` spreads concurrent writers of one day over four rows (by
// connection), so checkouts do not queue behind each other's count.
import { sql, type Kysely } from 'kysely';

const KEYS = sql.raw('day, payment_status, delivery_status, delivery_type, persona_status');
const DAY = `(created_at AT TIME ZONE interval '+05:30')::date`;
const DAY_OF = sql.raw(DAY);

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE order_list_counts (
      day date NOT NULL,
      payment_status text NOT NULL,
      delivery_status text NOT NULL,
      delivery_type text NOT NULL,
      persona_status text NOT NULL,
      slot smallint NOT NULL,
      n integer NOT NULL,
      PRIMARY KEY (${KEYS}, slot)
    )`.execute(db);
  await sql`
    INSERT INTO order_list_counts (${KEYS}, slot, n)
    SELECT ${DAY_OF}, payment_status, delivery_status, delivery_type, persona_status, 0, count(*)
    FROM orders GROUP BY 1, 2, 3, 4, 5`.execute(db);
  // The rows a statement added (+1) and took away (-1), summed per key: an update that moves no
  // order between keys (most do not) writes nothing. Keys in order, so two writers lock alike.
  const change = (rows: string) => sql`
    INSERT INTO order_list_counts AS c (${KEYS}, slot, n)
    SELECT ${KEYS}, pg_backend_pid() % 4, sum(delta) FROM (${sql.raw(rows)}) AS changed
    GROUP BY ${KEYS} HAVING sum(delta) <> 0 ORDER BY ${KEYS}
    ON CONFLICT (${KEYS}, slot) DO UPDATE SET n = c.n + excluded.n`;
  const added = `SELECT ${DAY} AS day, payment_status, delivery_status, delivery_type, persona_status, 1 AS delta FROM new_rows`;
  const removed = `SELECT ${DAY} AS day, payment_status, delivery_status, delivery_type, persona_status, -1 AS delta FROM old_rows`;
  await sql`
    CREATE FUNCTION order_list_counts_insert() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    BEGIN ${change(added)}; RETURN NULL; END $$`.execute(db);
  await sql`
    CREATE FUNCTION order_list_counts_update() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    BEGIN ${change(`${added} UNION ALL ${removed}`)}; RETURN NULL; END $$`.execute(db);
  await sql`
    CREATE FUNCTION order_list_counts_delete() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    BEGIN ${change(removed)}; RETURN NULL; END $$`.execute(db);
  await sql`CREATE TRIGGER order_list_counts_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION order_list_counts_insert()`.execute(db);
  await sql`CREATE TRIGGER order_list_counts_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION order_list_counts_update()`.execute(db);
  await sql`CREATE TRIGGER order_list_counts_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION order_list_counts_delete()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const op of ['insert', 'update', 'delete']) {
    await sql`DROP TRIGGER order_list_counts_${sql.raw(op)} ON orders`.execute(db);
    await sql`DROP FUNCTION order_list_counts_${sql.raw(op)}()`.execute(db);
  }
  await sql`DROP TABLE order_list_counts`.execute(db);
}
