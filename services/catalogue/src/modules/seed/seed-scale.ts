// The scale data set's books (npm run seed:scale, DESIGN §11): varied, plausible books made
// from word lists by a seeded generator (the same seed makes the same books), in categories,
// with tags that exercise the home tabs' rules (spec §5) and a long tail of topics, sample pages
// (plain and paged, some with ad pages), prices, ratings and dates over two years. Inserted in
// large batches (one statement per batch, arrays unnested), then the tag vocabulary is rebuilt.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { SampleContent } from '@persona/contracts';
import { seededRandom, type SeededRandom } from '@persona/service-kit';
import type { CatalogueDB } from '../../db';
import { normaliseTags } from '../books/parse-book-form';
import { rebuildSearchWords } from '../books/search-words.repository';
import { rebuildTagCounts } from '../books/tags.repository';
import { bumpCatalogueVersion } from '../catalogue-version.repository';

export interface ScaleBook {
  id: string;
  title: string;
  author: string;
  pricePaise: number;
  printingCostPaise: number;
}

export interface ScaleCatalogueOptions {
  books: number;
  seed?: number;
  /** Rows per insert statement. */
  batch?: number;
  onProgress?: (done: number, total: number) => void;
}

const CATEGORIES: Array<[string, string]> = [
  ['Novels & Stories', 'Mysteries, romances, adventures and short fiction.'],
  ['Memoirs, Lives & History', 'Memoirs, biographies and historical fiction.'],
  ['Self-Help & Wisdom', 'Practical, humane books on habits, attention and money.'],
  ['Poetry & Classics', 'Timeless verse and reflective prose.'],
  ['Mystery & Thriller', 'Detectives, heists and unquiet houses.'],
  ['Science & Nature', 'The world explained, from monsoons to molecules.'],
  ['Food & Travel', 'Kitchens, markets and long journeys.'],
  ['Children & Young Readers', 'Stories for the young and the young at heart.'],
  ['Business & Money', 'Work, trade and the numbers behind them.'],
  ['Philosophy & Religion', 'Questions old and new.'],
  ['Art, Music & Film', 'Makers and what they made.'],
  ['Science Fiction & Fantasy', 'Other worlds and this one, changed.'],
  ['Romance', 'Love, lost and found.'],
  ['Health & Wellbeing', 'Body, mind and the days between.'],
  ['History & Politics', 'How we came to be here.'],
  ['Essays & Letters', 'Short forms, long thoughts.'],
];

const ADJECTIVES = [
  'Quiet',
  'Last',
  'Indigo',
  'Salt',
  'Silent',
  'Golden',
  'Hidden',
  'Paper',
  'Monsoon',
  'Distant',
  'Small',
  'Burning',
  'Amber',
  'Lost',
  'Little',
  'Second',
  'Crimson',
  'Winter',
  'Summer',
  'Broken',
  'Gentle',
  'Wandering',
  'Secret',
  'Forgotten',
  'Bright',
  'Hollow',
  'Northern',
  'Southern',
  'Endless',
  'Borrowed',
  'Tender',
  'Wild',
  'Patient',
  'Restless',
  'Saffron',
  'Copper',
  'Glass',
  'Iron',
  'Velvet',
  'Midnight',
  'Morning',
  'Evening',
  'Scattered',
  'Unfinished',
  'Unquiet',
  'Ordinary',
  'Impossible',
  'Honest',
  'Crooked',
  'Faithful',
];
const NOUNS = [
  'Ledger',
  'Tiffin',
  'Harbour',
  'Hour',
  'Garden',
  'River',
  'Lantern',
  'Kitchen',
  'Letters',
  'Monsoon',
  'Courtyard',
  'Tram',
  'Orchard',
  'Compass',
  'Ghat',
  'Market',
  'Island',
  'Bridge',
  'Mirror',
  'Shadow',
  'Temple',
  'Library',
  'Station',
  'Window',
  'Balcony',
  'Archive',
  'Mango',
  'Spice',
  'Tide',
  'Mountain',
  'Valley',
  'Caravan',
  'Pilgrim',
  'Weaver',
  'Potter',
  'Cartographer',
  'Detective',
  'Widow',
  'Daughter',
  'Astronomer',
  'Gardener',
  'Tailor',
  'Clockmaker',
  'Ferryman',
  'Scholar',
  'Elephant',
  'Peacock',
  'Tiger',
  'Sparrow',
  'Kite',
  'Veena',
  'Raga',
  'Notebook',
  'Map',
  'Promise',
  'Inheritance',
  'Silence',
  'Summer',
  'Journey',
  'Almanac',
];
const PLACES = [
  'Madurai',
  'Kochi',
  'Calcutta',
  'Bombay',
  'Varanasi',
  'Shimla',
  'Goa',
  'Mysore',
  'Lucknow',
  'Hampi',
  'Pondicherry',
  'Darjeeling',
  'Jaipur',
  'Udaipur',
  'Madras',
  'Hyderabad',
  'Amritsar',
  'Ooty',
  'Alleppey',
  'Kutch',
  'Lisbon',
  'Paris',
  'Kyoto',
  'Zanzibar',
  'Istanbul',
  'Lahore',
  'Dhaka',
  'Colombo',
  'Kathmandu',
  'Marrakesh',
  'Montréal',
  'São Paulo',
  'Zürich',
  'Kraków',
  'Reykjavík',
];
const FIRST_NAMES = [
  'Meera',
  'Arjun',
  'Ananya',
  'Rohan',
  'Kavya',
  'Vikram',
  'Priya',
  'Aditya',
  'Lakshmi',
  'Rahul',
  'Zoë',
  'Renée',
  'José',
  'Chloé',
  'Björn',
  'Søren',
  'Amélie',
  'Noël',
  'Asha',
  'Kabir',
  'Ishaan',
  'Nandini',
  'Farah',
  'Imran',
  'Tenzin',
  'Mei',
  'Hiroshi',
  'Amara',
  'Tomás',
  'Ingrid',
  'Ravi',
  'Sunita',
  'Devika',
  'Harish',
  'Gauri',
  'Neel',
  'Anjali',
  'Siddharth',
  'Rukmini',
  'Omar',
  'Leela',
  'Vivek',
  'Pooja',
  'Manish',
  'Shreya',
  'Karthik',
  'Divya',
  'Sameer',
  'Tara',
  'Yusuf',
  'Elena',
  'Marco',
  'Sofia',
  'Lucas',
  'Hannah',
  'Daniel',
  'Grace',
  'Samuel',
  'Nadia',
  'Arun',
];
const SURNAMES = [
  'Kuruvilla',
  'Menon',
  'Iyer',
  'Rao',
  'Nair',
  'Sharma',
  'Gupta',
  'Banerjee',
  'Chatterjee',
  'Pillai',
  'Desai',
  'Kulkarni',
  'Reddy',
  'Singh',
  'Kapoor',
  'Mehta',
  'Bose',
  'Sen',
  'Das',
  'Joshi',
  'Tiffinwala',
  'Fernandes',
  "D'Souza",
  'Pereira',
  'Khan',
  'Qureshi',
  'Ahmed',
  'Lindqvist',
  'Dubois',
  'García',
  'Müller',
  'Nakamura',
  'Okafor',
  'Haddad',
  'Novak',
  'Rossi',
  'Silva',
  'Costa',
  'Tanaka',
  'Mukherjee',
  'Agarwal',
  'Bhat',
  'Hegde',
  'Shetty',
  'Varma',
  'Krishnan',
  'Subramaniam',
  'Venkatesh',
  'Chandra',
  'Basu',
];
const GENRES = [
  'Mystery',
  'Romance',
  'Adventure',
  'Thriller',
  'Fantasy',
  'Science Fiction',
  'Short Stories',
  'Poetry',
  'Classic',
  'Essays',
  'Humour',
  'Drama',
  'Horror',
  'Young Adult',
  'Children',
  'Graphic Novel',
  'Literary Fiction',
  'Crime',
  'Satire',
  'Fable',
];
const TOPICS = [
  'India',
  'Kerala',
  'Bengal',
  'Tamil Nadu',
  'Himalayas',
  'Monsoon',
  'Food',
  'Cooking',
  'Travel',
  'Trains',
  'Rivers',
  'Sea',
  'Cities',
  'Villages',
  'Family',
  'Friendship',
  'Childhood',
  'Grief',
  'Love',
  'War',
  'Partition',
  'Independence',
  'Colonial India',
  'Mughal Era',
  'Ancient India',
  'Philosophy',
  'Spirituality',
  'Yoga',
  'Meditation',
  'Habits',
  'Productivity',
  'Finance',
  'Investing',
  'Careers',
  'Leadership',
  'Education',
  'Science',
  'Astronomy',
  'Nature',
  'Wildlife',
  'Birds',
  'Gardening',
  'Architecture',
  'Art',
  'Music',
  'Carnatic Music',
  'Film',
  'Theatre',
  'Dance',
  'Cricket',
  'Chess',
  'Mathematics',
  'Technology',
  'Medicine',
  'Health',
  'Psychology',
  'Language',
  'Translation',
  'Letters',
  'Diaries',
  'Myth',
  'Folklore',
  'Ramayana',
  'Mahabharata',
  'Detectives',
  'Heists',
  'Courtroom',
  'Politics',
  'Economics',
  'Law',
  'Migration',
  'Diaspora',
  'Identity',
  'Women',
  'Work',
  'Craft',
  'Textiles',
  'Weaving',
  'Pottery',
  'Tea',
  'Coffee',
  'Spices',
  'Markets',
  'Festivals',
  'Weddings',
  'Ghosts',
  'Time Travel',
  'Space',
  'Robots',
  'Climate',
  'Oceans',
  'Mountains',
  'Deserts',
  'Islands',
  'Café Culture',
  'Crème Pâtisserie',
  'Naïve Art',
  'Résistance',
  'Fiesta',
];
const TOPIC_VARIANTS = ['', ' History', ' Stories', ' Essays', ' for Beginners'];
const LINES = [
  'The rain began before dawn and did not stop for three days.',
  'Nobody in the house spoke of the locked room at the end of the corridor.',
  'She counted the steps down to the river, as she had every morning for forty years.',
  'The letter arrived with a foreign stamp and no return address.',
  'Every market has a sound, and this one sounded like an argument that had lasted a century.',
  'He kept the ledger in a biscuit tin beneath the floorboards.',
  'The train was late, which in that town meant it was on time.',
  'Grandmother said the tiffin box had crossed the sea twice.',
  'There are habits that save us and habits that wait for us.',
  'The first rule of the kitchen was never to waste a good silence.',
];

function bookTitle(r: SeededRandom): string {
  switch (r.int(0, 9)) {
    case 0:
      return `The ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}`;
    case 1:
      return `${r.pick(NOUNS)} of ${r.pick(PLACES)}`;
    case 2:
      return `A ${r.pick(NOUNS)} in ${r.pick(PLACES)}`;
    case 3:
      return `The ${r.pick(NOUNS)} and the ${r.pick(NOUNS)}`;
    case 4:
      return `${r.pick(FIRST_NAMES)}'s ${r.pick(NOUNS)}`;
    case 5:
      return `Letters from ${r.pick(PLACES)}`;
    case 6:
      return `The ${r.pick(NOUNS)} Who Counted ${r.pick(['Stars', 'Steps', 'Rivers', 'Days', 'Coins'])}`;
    case 7:
      return `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}s`;
    case 8:
      return `${r.pick(['Notes on', 'A Guide to', 'The Art of', 'On'])} ${r.pick(TOPICS)}`;
    default:
      return `The ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} of ${r.pick(PLACES)}`;
  }
}

/** Tags as people write them: the home tabs' exact tags and markers for some, genres and a long tail of topics for all. */
function bookTags(r: SeededRandom): string[] {
  const tags: string[] = [];
  const shelf = r.next();
  if (shelf < 0.3) tags.push('Fiction');
  else if (shelf < 0.38) tags.push('Self-Help');
  else if (shelf < 0.44) tags.push(r.pick(['Memoir', 'Biography', 'Historical Fiction', 'Historical', 'Autobiography', 'Literary Memoirs']));
  else if (shelf < 0.47) tags.push(r.pick(['fiction', 'self-help', 'historical'])); // written in lower case: not the tabs' exact tags
  tags.push(r.pick(GENRES));
  for (let i = r.int(1, 3); i > 0; i -= 1) tags.push(`${r.pick(TOPICS)}${r.pick(TOPIC_VARIANTS)}`.slice(0, 40));
  return normaliseTags(tags);
}

function sentence(r: SeededRandom, title: string): string {
  return r.pick([
    `${title} follows ${r.pick(FIRST_NAMES)} ${r.pick(SURNAMES)} from ${r.pick(PLACES)} to ${r.pick(PLACES)}.`,
    `It is a book about ${r.pick(TOPICS).toLowerCase()}, ${r.pick(TOPICS).toLowerCase()} and what we owe each other.`,
    `Written with warmth and wit, it asks what a ${r.pick(NOUNS).toLowerCase()} can remember that people forget.`,
    `Readers in ${r.pick(PLACES)} called it ${r.pick(['unforgettable', 'luminous', 'quietly devastating', 'a joy', 'the book of the year'])}.`,
    `Across ${r.int(2, 9)} ${r.pick(['summers', 'decades', 'chapters', 'journeys'])}, a ${r.pick(NOUNS).toLowerCase()} becomes a way of life.`,
    r.pick(LINES),
  ]);
}

function description(r: SeededRandom, title: string): string {
  let text = '';
  while (text.length < 200 || (text.length < 900 && r.chance(0.45))) {
    const next = sentence(r, title);
    if (text.length + next.length + 1 > 900) break;
    text = text ? `${text} ${next}` : next;
  }
  return text;
}

function sample(r: SeededRandom): SampleContent {
  const pages = r.int(4, 8);
  if (r.chance(0.6)) return Array.from({ length: pages }, () => r.pick(LINES)).join('\n');
  return Array.from({ length: pages }, (_, i) =>
    i === 3 && r.chance(0.3)
      ? { chapter: 'A word from us', content: 'Enjoying the sample? Make it your Persona: your name on the dedication page.', isAd: true }
      : { chapter: `Chapter ${i + 1}`, content: `${r.pick(LINES)} ${r.pick(LINES)}`, isAd: false },
  );
}

const DAY = 86_400_000;

/**
 * Adds `books` generated books (and the categories they use) to the catalogue; answers what the
 * orders of the data set need to know of each.
 */
export async function seedScaleCatalogue(db: Kysely<CatalogueDB>, options: ScaleCatalogueOptions): Promise<ScaleBook[]> {
  const r = seededRandom(options.seed ?? 1);
  const batch = options.batch ?? 2000;
  const categoryIds: string[] = [];
  for (const [name, descriptionText] of CATEGORIES) {
    const row = await db
      .insertInto('categories')
      .values({ name, description: descriptionText })
      .onConflict((oc) => oc.expression(sql`lower(name)`).doUpdateSet({ updated_at: sql`now()` }))
      .returning('id')
      .executeTakeFirstOrThrow();
    categoryIds.push(row.id);
  }
  const now = Date.now();
  const out: ScaleBook[] = [];
  for (let start = 0; start < options.books; start += batch) {
    const n = Math.min(batch, options.books - start);
    const cols = {
      id: [] as string[],
      title: [] as string[],
      author: [] as string[],
      description: [] as string[],
      price: [] as number[],
      printing: [] as number[],
      tags: [] as string[],
      rating: [] as number[],
      category: [] as string[],
      sample: [] as string[],
      created: [] as string[],
      updated: [] as string[],
      content: [] as string[],
    };
    for (let i = 0; i < n; i += 1) {
      const title = bookTitle(r);
      cols.id.push(randomUUID());
      cols.title.push(title);
      cols.author.push(`${r.pick(FIRST_NAMES)} ${r.pick(SURNAMES)}`);
      cols.description.push(description(r, title));
      cols.price.push(r.int(99, 1499) * 100 + (r.chance(0.2) ? 50 : 0));
      cols.printing.push(r.chance(0.3) ? 0 : r.int(5, 25) * 1000);
      // A text[] literal per row ("{…}"), quoted for the array parser.
      cols.tags.push(
        `{${bookTags(r)
          .map((t) => `"${t.replace(/["\\]/g, (c) => `\\${c}`)}"`)
          .join(',')}}`,
      );
      cols.rating.push(Math.round((2.5 + r.next() * 2.5) * 100) / 100);
      cols.category.push(r.pick(categoryIds));
      cols.sample.push(JSON.stringify(sample(r)));
      // Older books are fewer: the catalogue grew over two years.
      const created = now - Math.floor((1 - Math.sqrt(r.next())) * 730 * DAY);
      cols.created.push(new Date(created).toISOString());
      cols.updated.push(new Date(Math.min(now, created + r.int(0, 30) * DAY)).toISOString());
      cols.content.push(JSON.stringify([`# ${title}`, r.pick(LINES), r.pick(LINES), r.pick(LINES)]));
    }
    const { rows } = await db.transaction().execute(async (trx) => {
      const inserted = await sql<{ id: string; title: string; author: string; price_paise: number; printing_cost_paise: number }>`
        INSERT INTO books (id, title, author, price_paise, printing_cost_paise, tags, rating, category_id, trail_limit, created_at, updated_at)
        SELECT id, title, author, price, printing, tags::text[], rating, category, 3, created, updated
        FROM unnest(${cols.id}::uuid[], ${cols.title}::text[], ${cols.author}::text[], ${cols.price}::int[], ${cols.printing}::int[], ${cols.tags}::text[],
                    ${cols.rating}::numeric[], ${cols.category}::uuid[], ${cols.created}::timestamptz[], ${cols.updated}::timestamptz[])
             AS t(id, title, author, price, printing, tags, rating, category, created, updated)
        RETURNING id, title, author, price_paise, printing_cost_paise`.execute(trx);
      await sql`
        INSERT INTO book_contents (book_id, paragraphs, description, sample_content)
        SELECT id, content::jsonb, description, sample::jsonb
        FROM unnest(${cols.id}::uuid[], ${cols.content}::text[], ${cols.description}::text[], ${cols.sample}::text[]) AS t(id, content, description, sample)`.execute(
        trx,
      );
      return inserted;
    });
    for (const b of rows) out.push({ id: b.id, title: b.title, author: b.author, pricePaise: b.price_paise, printingCostPaise: b.printing_cost_paise });
    options.onProgress?.(start + n, options.books);
  }
  await db.transaction().execute(async (trx) => {
    await bumpCatalogueVersion(trx);
    await rebuildTagCounts(trx);
    await rebuildSearchWords(trx);
  });
  // After a bulk load: the GIN indexes' pending entries merged (else every search scans them) and the planner's statistics made.
  // VACUUM runs outside any transaction, so without the search_path set in each: its tables are named with their schema.
  const schema = (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db)).rows[0]!.schema;
  const tables = ['books', 'book_contents', 'tag_counts', 'search_words'].map((table) => sql.id(schema, table));
  await sql`VACUUM (ANALYZE) ${sql.join(tables)}`.execute(db);
  return out;
}
