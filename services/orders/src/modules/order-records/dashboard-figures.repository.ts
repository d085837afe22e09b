// The dashboard's figures: paid sales per day of the shop, and what waits for the administrator.
import { sql, type Kysely } from 'kysely';
import { SHOP_UTC_OFFSET, shopDayStart } from '@persona/contracts';
import type { OrdersDB } from '../../db';

type Db = Kysely<OrdersDB>;

/** A paid order's day of the shop (India time) as YYYY-MM-DD. */
const shopDay = sql<string>`to_char(created_at AT TIME ZONE interval ${sql.lit(SHOP_UTC_OFFSET)}, 'YYYY-MM-DD')`;

export interface SalesDayRow {
  day: string;
  orders: number;
  revenue_paise: number;
}

/**
 * The paid orders of each of the shop's days from `fromDay` on (days without one are absent):
 * a range of the paid-sales index, read without the table (it carries the amount).
 */
export function salesByDay(db: Db, fromDay: string): Promise<SalesDayRow[]> {
  return db
    .selectFrom('orders')
    .where('payment_status', '=', 'paid')
    .where('created_at', '>=', shopDayStart(fromDay))
    .select([shopDay.as('day'), sql<number>`count(*)::int`.as('orders'), sql<number>`coalesce(sum(amount_paise), 0)::float8`.as('revenue_paise')])
    .groupBy(shopDay)
    .orderBy(shopDay)
    .execute();
}

export interface WorkCountsRow {
  awaiting_dispatch: number;
  failed_personas: number;
}

/** What waits for the administrator: paid printed copies not yet dispatched, paid orders whose Persona failed. */
export async function workCounts(db: Db): Promise<WorkCountsRow> {
  const paid = db.selectFrom('orders').where('payment_status', '=', 'paid');
  const [awaiting, failed] = await Promise.all([
    paid
      .where('delivery_type', '=', 'physical')
      .where('delivery_status', '=', 'pending')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow(),
    paid
      .where('persona_status', '=', 'failed')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { awaiting_dispatch: awaiting.n, failed_personas: failed.n };
}
