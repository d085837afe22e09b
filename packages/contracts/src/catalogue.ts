// Catalogue wire shapes: books, categories, sample pages (spec §3, DESIGN §6).
import { Type, type Static } from '@sinclair/typebox';
import { Id, PageMeta, PageQuery, PlainText } from './common';
import { BOOK_SORTS, HOME_TABS, RELATED_MAX, SEARCH_MAX_LENGTH, TAG_SORTS, TAGS_MAX_PAGE_SIZE } from './catalogue-rules';

export * from './catalogue-rules';

export const SamplePage = Type.Object(
  {
    chapter: Type.String({ maxLength: 200 }),
    content: Type.String({ maxLength: 20000 }),
    isAd: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type SamplePage = Static<typeof SamplePage>;

/** The spec allows a newline-separated string or a list of pages. */
export const SampleContent = Type.Union([Type.String({ maxLength: 200000 }), Type.Array(SamplePage, { maxItems: 500 })]);
export type SampleContent = Static<typeof SampleContent>;

export const FileRef = Type.Object({ url: Type.String() });
export type FileRef = Static<typeof FileRef>;

export const CategoryRef = Type.Object({ _id: Id, name: Type.String() });
export type CategoryRef = Static<typeof CategoryRef>;

export const Category = Type.Object({
  _id: Id,
  name: Type.String(),
  description: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Category = Static<typeof Category>;

export const CATEGORY_NAME_MAX = 80;
export const CategoryBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: CATEGORY_NAME_MAX, pattern: '\\S' }),
    description: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);
export type CategoryBody = Static<typeof CategoryBody>;

/** Which free sample the reader shows: the text sample first, else the uploaded sample PDF; null when the book has neither. */
export const SAMPLE_KINDS = ['text', 'pdf'] as const;
export type SampleKind = (typeof SAMPLE_KINDS)[number];
export const BookSample = Type.Union([Type.Literal('text'), Type.Literal('pdf'), Type.Null()]);

/**
 * A book as the public sees it. Never carries `content` (the full text) nor
 * where the full PDF lives: `hasFullPdf` only says that one exists.
 */
export const Book = Type.Object({
  _id: Id,
  title: Type.String(),
  author: Type.String(),
  description: Type.String(),
  price: Type.Number({ description: 'rupees' }),
  printingCost: Type.Number({ description: 'rupees' }),
  tags: Type.Array(Type.String()),
  ratings: Type.Object({ average: Type.Number() }),
  category: Type.Union([CategoryRef, Type.Null()]),
  sampleContent: SampleContent,
  trailLimit: Type.Integer(),
  coverImage: Type.Union([FileRef, Type.Null()]),
  images: Type.Array(FileRef),
  samplePdf: Type.Union([FileRef, Type.Null()]),
  /** The free sample the reader shows ("Read a free sample" only when there is one). */
  sample: BookSample,
  hasFullPdf: Type.Boolean(),
  /** The author's own signature was uploaded: each Persona's dedication page draws it (else it is signed by Persona Books for the author). */
  hasAuthorSignature: Type.Boolean(),
  /** The language the book is written in, as readers name it ("English", "Hindi"). */
  language: Type.String(),
  /** Pages of the full PDF, when the book has one. */
  pageCount: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  /** Words of the full text, when the book has one (a Persona typeset from it). */
  wordCount: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Book = Static<typeof Book>;

/** A book's language unless the administrator names another. */
export const DEFAULT_BOOK_LANGUAGE = 'English';

/** A book in a list: everything but the sample text, which only the book's own pages need. */
export const BookSummary = Type.Omit(Book, ['sampleContent']);
export type BookSummary = Static<typeof BookSummary>;

/**
 * `GET /internal/books/:id/checkout`: what the orders service prices a checkout from, in integer
 * paise as the catalogue stores it (the public Book carries rupees for people; a sale never goes
 * through them). Never routed by the gateway.
 */
export const CheckoutBook = Type.Object(
  {
    id: Id,
    title: Type.String(),
    author: Type.String(),
    pricePaise: Type.Integer({ minimum: 0 }),
    printingCostPaise: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type CheckoutBook = Static<typeof CheckoutBook>;

export const BookQuery = Type.Object(
  {
    /** Title or author; case- and accent-insensitive, tolerant of a typo, ranked. Plain text: no wildcard or pattern syntax. */
    search: Type.Optional(PlainText({ maxLength: SEARCH_MAX_LENGTH })),
    /** The explore chips' rule (spec §5): books having a tag that contains this text, case-insensitively. */
    tag: Type.Optional(PlainText({ maxLength: 60 })),
    /** The home tabs' rules (spec §5). */
    tab: Type.Optional(Type.Union(HOME_TABS.map((t) => Type.Literal(t)))),
    category: Type.Optional(Id),
    sort: Type.Optional(Type.Union(BOOK_SORTS.map((s) => Type.Literal(s)))),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type BookQuery = Static<typeof BookQuery>;

/**
 * `GET /api/books`'s page facts. `didYouMean` names the title a search most likely meant: the best
 * match when the books match only once its typos are corrected, or the closest title when nothing matches.
 */
export const BookListMeta = Type.Composite([PageMeta, Type.Object({ didYouMean: Type.Optional(Type.String()) })]);
export type BookListMeta = Static<typeof BookListMeta>;
export const BookList = Type.Object({ data: Type.Array(BookSummary), meta: BookListMeta, message: Type.Optional(Type.String()) });
export type BookList = Static<typeof BookList>;

/** A chip: a distinct lower-cased tag and how many books carry it. */
export const TagCount = Type.Object({ tag: Type.String(), count: Type.Integer({ minimum: 1 }) });
export type TagCount = Static<typeof TagCount>;

/** `GET /api/tags`: the distinct lower-cased tags, by name (default) or by how many books carry them; `q` keeps tags containing it. */
export const TagQuery = Type.Object(
  {
    q: Type.Optional(PlainText({ maxLength: 60 })),
    sort: Type.Optional(Type.Union(TAG_SORTS.map((s) => Type.Literal(s)))),
    page: PageQuery.page,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: TAGS_MAX_PAGE_SIZE, default: 100 })),
  },
  { additionalProperties: false },
);
export type TagQuery = Static<typeof TagQuery>;

/** "You Might Also Like" (spec §2: up to 4; a caller may ask for more). */
export const RelatedQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: RELATED_MAX, default: 4 })) },
  { additionalProperties: false },
);
export type RelatedQuery = Static<typeof RelatedQuery>;

/** The header search box's suggestions: a book (opens its page) or an author (searches for them). */
export const SuggestQuery = Type.Object({ q: PlainText({ maxLength: SEARCH_MAX_LENGTH }) }, { additionalProperties: false });
export type SuggestQuery = Static<typeof SuggestQuery>;
export const Suggestion = Type.Union([
  Type.Object({ kind: Type.Literal('book'), _id: Id, title: Type.String(), author: Type.String() }),
  Type.Object({ kind: Type.Literal('author'), author: Type.String(), books: Type.Integer({ minimum: 1 }) }),
]);
export type Suggestion = Static<typeof Suggestion>;

/** `GET /api/books/sitemap`: how many books there are and when each file of the book sitemap last changed. */
export const SitemapIndex = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  perFile: Type.Integer({ minimum: 1 }),
  files: Type.Array(Type.Object({ file: Type.Integer({ minimum: 1 }), lastModified: Type.String({ format: 'date-time' }) })),
});
export type SitemapIndex = Static<typeof SitemapIndex>;
/** `GET /api/books/sitemap/:file`: the books of one sitemap file, oldest first. */
export const SitemapEntry = Type.Object({ _id: Id, updatedAt: Type.String({ format: 'date-time' }) });
export type SitemapEntry = Static<typeof SitemapEntry>;
export const SitemapFileParams = Type.Object({ file: Type.Integer({ minimum: 1, maximum: 10000 }) }, { additionalProperties: false });

export const BOOK_LIMITS = {
  titleMax: 200,
  authorMax: 120,
  descriptionMax: 5000,
  tagMax: 40,
  tagsMax: 12,
  contentParagraphsMax: 20000,
  paragraphMax: 20000,
  priceMax: 100000,
  ratingMax: 5,
  trailLimitMax: 1000,
  languageMax: 40,
  imagesMax: 8,
  /** Every uploaded file: the spec's 10 MB (spec §5, §9). */
  fileMaxBytes: 10 * 1024 * 1024,
  /** The author's signature: a picture of a few hundred pixels needs far less. */
  signatureMaxBytes: 1024 * 1024,
} as const;

/**
 * The text fields of the book multipart form (spec §7 plus printingCost), as
 * parsed from their string form. Create needs the required ones; update takes
 * any subset. Files travel as the parts coverImage, images, fullPdf, samplePdf, authorSignature.
 */
export const BookFields = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: BOOK_LIMITS.titleMax, pattern: '\\S' }),
    author: Type.String({ minLength: 1, maxLength: BOOK_LIMITS.authorMax, pattern: '\\S' }),
    description: Type.String({ minLength: 1, maxLength: BOOK_LIMITS.descriptionMax, pattern: '\\S' }),
    category: Id,
    price: Type.Number({ minimum: 0, maximum: BOOK_LIMITS.priceMax }),
    printingCost: Type.Optional(Type.Number({ minimum: 0, maximum: BOOK_LIMITS.priceMax })),
    ratings: Type.Optional(Type.Number({ minimum: 0, maximum: BOOK_LIMITS.ratingMax })),
    trailLimit: Type.Optional(Type.Integer({ minimum: 0, maximum: BOOK_LIMITS.trailLimitMax })),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: BOOK_LIMITS.tagMax }), { maxItems: BOOK_LIMITS.tagsMax })),
    content: Type.Optional(Type.Array(Type.String({ maxLength: BOOK_LIMITS.paragraphMax }), { maxItems: BOOK_LIMITS.contentParagraphsMax })),
    sampleContent: Type.Optional(SampleContent),
    language: Type.Optional(PlainText({ minLength: 2, maxLength: BOOK_LIMITS.languageMax })),
  },
  { additionalProperties: false },
);
export type BookFields = Static<typeof BookFields>;
export const BookFieldsUpdate = Type.Partial(BookFields, { additionalProperties: false });
export type BookFieldsUpdate = Static<typeof BookFieldsUpdate>;

/** `authorSignature`: the author's own signature, a PNG with a transparent background (drawn on each Persona's dedication page). */
export const BOOK_FILE_FIELDS = ['coverImage', 'images', 'fullPdf', 'samplePdf', 'authorSignature'] as const;
export type BookFileField = (typeof BOOK_FILE_FIELDS)[number];
/** Fields whose multipart value is JSON text (spec §7: tags and content are JSON lists). */
export const BOOK_JSON_FIELDS = ['tags', 'content', 'sampleContent'] as const;
export const BOOK_NUMBER_FIELDS = ['price', 'printingCost', 'ratings', 'trailLimit'] as const;
