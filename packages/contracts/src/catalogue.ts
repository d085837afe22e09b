// Catalogue wire shapes: books, categories, sample pages (spec §3, DESIGN §6).
import { Type, type Static } from '@sinclair/typebox';
import { Id, PageQuery } from './common';

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
  hasFullPdf: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Book = Static<typeof Book>;

/** A book in a list: everything but the sample text, which only the book's own pages need. */
export const BookSummary = Type.Omit(Book, ['sampleContent']);
export type BookSummary = Static<typeof BookSummary>;

export const BookQuery = Type.Object(
  {
    search: Type.Optional(Type.String({ maxLength: 100 })),
    tag: Type.Optional(Type.String({ maxLength: 60 })),
    category: Type.Optional(Id),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type BookQuery = Static<typeof BookQuery>;

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
  imagesMax: 8,
  /** Every uploaded file: the spec's 10 MB (spec §5, §9). */
  fileMaxBytes: 10 * 1024 * 1024,
} as const;

/**
 * The text fields of the book multipart form (spec §7 plus printingCost), as
 * parsed from their string form. Create needs the required ones; update takes
 * any subset. Files travel as the parts coverImage, images, fullPdf, samplePdf.
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
  },
  { additionalProperties: false },
);
export type BookFields = Static<typeof BookFields>;
export const BookFieldsUpdate = Type.Partial(BookFields, { additionalProperties: false });
export type BookFieldsUpdate = Static<typeof BookFieldsUpdate>;

export const BOOK_FILE_FIELDS = ['coverImage', 'images', 'fullPdf', 'samplePdf'] as const;
export type BookFileField = (typeof BOOK_FILE_FIELDS)[number];
/** Fields whose multipart value is JSON text (spec §7: tags and content are JSON lists). */
export const BOOK_JSON_FIELDS = ['tags', 'content', 'sampleContent'] as const;
export const BOOK_NUMBER_FIELDS = ['price', 'printingCost', 'ratings', 'trailLimit'] as const;
