// The scale data set's orders (npm run seed:scale, DESIGN §11): made by a seeded generator from
// the books the catalogue's seed made. Buyers come back (a pool of about a quarter as many
// buyers as orders), most orders are paid, physical ones move through delivery, dates spread
// over two years with more orders lately. Paid orders count their Persona as made (no file is
// written: the data set is for lists, searches and exports). Inserted in large batches, one
// statement per batch (arrays unnested); no events are written for seeded rows.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { computeOrderAmount, formatPersonaId, orderedOnOf, printedDelivery, type DeliveryStatus, type PaymentStatus } from '@persona/contracts';
import { seededRandom, type SeededRandom } from '@persona/service-kit';
import type { OrdersDB } from '../../db';

export interface ScaleOrderBook {
  id: string;
  title: string;
  author: string;
  pricePaise: number;
  printingCostPaise: number;
}

export interface ScaleOrdersOptions {
  orders: number;
  books: readonly ScaleOrderBook[];
  seed?: number;
  batch?: number;
  onProgress?: (done: number, total: number) => void;
}

const FIRST = [
  'Aarav',
  'Vivaan',
  'Aditya',
  'Vihaan',
  'Arjun',
  'Sai',
  'Reyansh',
  'Ayaan',
  'Krishna',
  'Ishaan',
  'Ananya',
  'Diya',
  'Aadhya',
  'Saanvi',
  'Pari',
  'Anika',
  'Navya',
  'Myra',
  'Sara',
  'Kiara',
  'Priya',
  'Rahul',
  'Sneha',
  'Amit',
  'Pooja',
  'Rohan',
  'Neha',
  'Karan',
  'Anjali',
  'Vikram',
  'Meera',
  'Zoë',
  'Renée',
  'José',
  'Lakshmi',
  'Farah',
  'Imran',
  'Tenzin',
  'Harpreet',
  'Gurpreet',
  'Deepa',
  'Suresh',
  'Ramesh',
  'Kavita',
  'Sunil',
  'Anita',
  'Manoj',
  'Rekha',
  'Arun',
  'Divya',
];
const LAST = [
  'Sharma',
  'Verma',
  'Gupta',
  'Iyer',
  'Nair',
  'Menon',
  'Rao',
  'Reddy',
  'Pillai',
  'Kumar',
  'Singh',
  'Patel',
  'Shah',
  'Mehta',
  'Desai',
  'Joshi',
  'Kulkarni',
  'Banerjee',
  'Chatterjee',
  'Mukherjee',
  'Das',
  'Bose',
  'Sen',
  'Khan',
  'Ahmed',
  'Fernandes',
  "D'Souza",
  'Pereira',
  'Kapoor',
  'Malhotra',
  'Chopra',
  'Agarwal',
  'Bhat',
  'Hegde',
  'Shetty',
  'Krishnan',
  'Subramanian',
  'Venkatesh',
  'Naidu',
  'Choudhury',
];
const DOMAINS = ['gmail.com', 'yahoo.co.in', 'outlook.com', 'hotmail.com', 'rediffmail.com', 'proton.me', 'icloud.com', 'example.in'];
const CITIES: Array<[string, string]> = [
  ['Mumbai', '400'],
  ['Delhi', '110'],
  ['Bengaluru', '560'],
  ['Chennai', '600'],
  ['Kolkata', '700'],
  ['Hyderabad', '500'],
  ['Pune', '411'],
  ['Kochi', '682'],
  ['Jaipur', '302'],
  ['Lucknow', '226'],
  ['Ahmedabad', '380'],
  ['Chandigarh', '160'],
];
const STREETS = [
  'MG Road',
  'Park Street',
  'Linking Road',
  'Brigade Road',
  'Anna Salai',
  'FC Road',
  'Marine Drive',
  'Civil Lines',
  'Station Road',
  'Temple Street',
];

const DAY = 86_400_000;
const ASCII = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();

interface Buyer {
  name: string;
  email: string;
  phone: string;
}

function buyer(r: SeededRandom, n: number): Buyer {
  const first = r.pick(FIRST);
  const last = r.pick(LAST);
  const local = r.pick([`${ASCII(first)}.${ASCII(last)}`, `${ASCII(first)}${ASCII(last)}`, `${ASCII(first)}_${ASCII(last).slice(0, 3)}`]);
  return {
    name: `${first} ${last}`,
    email: `${local}${n % 97 === 0 ? '' : n}@${r.pick(DOMAINS)}`,
    phone: `+91 9${String(r.int(0, 9999)).padStart(4, '0')} ${String(r.int(0, 99999)).padStart(5, '0')}`,
  };
}

function token(r: SeededRandom, length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[r.int(0, alphabet.length - 1)];
  return out;
}

function paymentStatus(r: SeededRandom): PaymentStatus {
  const p = r.next();
  return p < 0.88 ? 'paid' : p < 0.92 ? 'failed' : p < 0.95 ? 'attempted' : 'created';
}

function deliveryStatus(r: SeededRandom, physical: boolean, paid: boolean, ageDays: number): DeliveryStatus {
  if (!physical || !paid) return 'pending';
  const p = r.next();
  if (ageDays < 14) return p < 0.6 ? 'pending' : 'shipped';
  return p < 0.85 ? 'delivered' : p < 0.92 ? 'shipped' : p < 0.95 ? 'pending' : 'cancelled';
}

/** Adds `orders` generated orders for `books`; answers how many were paid. */
export async function seedScaleOrders(db: Kysely<OrdersDB>, options: ScaleOrdersOptions): Promise<{ orders: number; paid: number }> {
  if (options.books.length === 0) throw new Error('the scale orders need books to be orders of');
  const r = seededRandom(options.seed ?? 1);
  const batch = options.batch ?? 5000;
  const buyers = Array.from({ length: Math.max(1, Math.round(options.orders / 4)) }, (_, i) => buyer(r, i));
  const now = Date.now();
  let paidCount = 0;
  for (let start = 0; start < options.orders; start += batch) {
    const n = Math.min(batch, options.orders - start);
    const c: Record<string, Array<string | number | null>> = {};
    const push = (column: string, value: string | number | null) => (c[column] ??= []).push(value);
    for (let i = 0; i < n; i += 1) {
      const book = r.pick(options.books);
      const who = r.pick(buyers);
      const physical = r.chance(0.3);
      const status = paymentStatus(r);
      const paid = status === 'paid';
      const ageDays = (1 - Math.sqrt(r.next())) * 730;
      const created = now - Math.floor(ageDays * DAY);
      const amount = computeOrderAmount({ pricePaise: book.pricePaise, printingCostPaise: book.printingCostPaise }, physical ? 'physical' : 'digital');
      const [city, zip] = r.pick(CITIES);
      const bytes = new Uint8Array(10);
      for (let b = 0; b < 10; b += 1) bytes[b] = r.int(0, 255);
      push('id', randomUUID());
      push('persona_id', formatPersonaId(bytes));
      push('book_id', book.id);
      push('book_title', book.title);
      push('book_author', book.author);
      push('full_name', who.name);
      push('email', who.email);
      push('phone', who.phone);
      push('delivery_type', physical ? 'physical' : 'digital');
      push(
        'address',
        physical
          ? JSON.stringify({ line1: `${r.int(1, 250)} ${r.pick(STREETS)}`, city, zip: `${zip}${String(r.int(0, 999)).padStart(3, '0')}`, country: 'India' })
          : null,
      );
      push('base_paise', amount.basePaise);
      push('printing_paise', amount.printingPaise);
      push('delivery_paise', amount.deliveryPaise);
      push('amount_paise', amount.totalPaise);
      push('payment_status', status);
      push('delivery_status', deliveryStatus(r, physical, paid, ageDays));
      push('persona_status', paid ? 'ready' : 'pending');
      push(
        'persona_sha256',
        paid
          ? token(r, 64)
              .toLowerCase()
              .replace(/[^0-9a-f]/g, 'a')
          : null,
      );
      push('razorpay_order_id', `order_${token(r, 14)}${(start + i).toString(36)}`);
      push('razorpay_payment_id', paid ? `pay_${token(r, 14)}` : null);
      push('paid_via', paid ? r.pick(['verify', 'webhook', 'webhook', 'reconciler']) : null);
      push('created_at', new Date(created).toISOString());
      push('updated_at', new Date(created + r.int(60, 86_400) * 1000).toISOString());
      const paidAt = paid ? new Date(created + r.int(30, 300) * 1000) : null;
      push('paid_at', paidAt ? paidAt.toISOString() : null);
      // A paid printed copy's ship-by date, as payment sets it (the dispatch list's order).
      push('ship_by', paidAt && physical ? printedDelivery(orderedOnOf(paidAt)).shipBy : null);
      if (paid) paidCount += 1;
    }
    await sql`
      INSERT INTO orders (id, persona_id, book_id, book_title, book_author, full_name, email, phone, delivery_type, address, base_paise, printing_paise, delivery_paise, amount_paise,
                          payment_status, delivery_status, persona_status, persona_sha256, razorpay_order_id, razorpay_payment_id, paid_via, created_at, updated_at, paid_at, ship_by)
      SELECT id, persona_id, book_id, book_title, book_author, full_name, email, phone, delivery_type, address::jsonb, base_paise, printing_paise, delivery_paise, amount_paise,
             payment_status, delivery_status, persona_status, persona_sha256, razorpay_order_id, razorpay_payment_id, paid_via, created_at, updated_at, paid_at, ship_by
      FROM unnest(
        ${c.id}::uuid[], ${c.persona_id}::text[], ${c.book_id}::uuid[], ${c.book_title}::text[], ${c.book_author}::text[], ${c.full_name}::text[], ${c.email}::text[], ${c.phone}::text[],
        ${c.delivery_type}::text[], ${c.address}::text[], ${c.base_paise}::int[], ${c.printing_paise}::int[], ${c.delivery_paise}::int[], ${c.amount_paise}::int[],
        ${c.payment_status}::text[], ${c.delivery_status}::text[], ${c.persona_status}::text[], ${c.persona_sha256}::text[], ${c.razorpay_order_id}::text[], ${c.razorpay_payment_id}::text[],
        ${c.paid_via}::text[], ${c.created_at}::timestamptz[], ${c.updated_at}::timestamptz[], ${c.paid_at}::timestamptz[], ${c.ship_by}::text[]
      ) AS t(id, persona_id, book_id, book_title, book_author, full_name, email, phone, delivery_type, address, base_paise, printing_paise, delivery_paise, amount_paise,
             payment_status, delivery_status, persona_status, persona_sha256, razorpay_order_id, razorpay_payment_id, paid_via, created_at, updated_at, paid_at, ship_by)`.execute(
      db,
    );
    options.onProgress?.(start + n, options.orders);
  }
  // After a bulk load: the planner's statistics, and the visibility map that lets counts read the indexes alone.
  // VACUUM runs outside any transaction, so without the search_path set in each: the table is named with its schema.
  const schema = (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db)).rows[0]!.schema;
  await sql`VACUUM (ANALYZE) ${sql.id(schema, 'orders')}`.execute(db);
  return { orders: options.orders, paid: paidCount };
}
