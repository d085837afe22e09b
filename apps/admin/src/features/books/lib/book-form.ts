// The book form's rules (spec §5, §7): what is required, which fields are numbers, how tags,
// paragraphs and sample pages are typed, which files each picker takes, and the multipart body.
import { BOOK_LIMITS, DEFAULT_BOOK_LANGUAGE, printableTextProblem, type Book, type BookFileField, type SampleKind, type SamplePage } from '@persona/contracts';

export interface BookFormValues {
  title: string;
  author: string;
  /** As readers name it; English when left as it opens. */
  language: string;
  description: string;
  category: string;
  price: string;
  printingCost: string;
  ratings: string;
  trailLimit: string;
  /** Comma separated. */
  tags: string;
  /** One paragraph per line. */
  content: string;
  sampleMode: 'text' | 'pages';
  /** One sample page per line (sampleMode "text"). */
  sampleText: string;
  samplePages: SamplePage[];
}

export type BookFiles = Partial<Record<Exclude<BookFileField, 'images'>, File>> & { images?: File[] };

export const EMPTY_BOOK_FORM: BookFormValues = {
  title: '',
  author: '',
  language: DEFAULT_BOOK_LANGUAGE,
  description: '',
  category: '',
  price: '',
  printingCost: '',
  ratings: '',
  trailLimit: '',
  tags: '',
  content: '',
  sampleMode: 'text',
  sampleText: '',
  samplePages: [],
};

export function parseTags(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

export function parseParagraphs(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The form as it opens for an existing book (its full text comes from the admin-only content route). */
export function valuesFromBook(book: Book, content: readonly string[]): BookFormValues {
  const pages = Array.isArray(book.sampleContent);
  return {
    title: book.title,
    author: book.author,
    language: book.language,
    description: book.description,
    category: book.category?._id ?? '',
    price: String(book.price),
    printingCost: book.printingCost ? String(book.printingCost) : '',
    ratings: book.ratings.average ? String(book.ratings.average) : '',
    trailLimit: book.trailLimit ? String(book.trailLimit) : '',
    tags: book.tags.join(', '),
    content: content.join('\n'),
    sampleMode: pages ? 'pages' : 'text',
    sampleText: pages ? '' : (book.sampleContent as string),
    samplePages: pages ? (book.sampleContent as SamplePage[]).map((p) => ({ ...p })) : [],
  };
}

const NUMBER_RULES = {
  price: { label: 'Price', min: 0, max: BOOK_LIMITS.priceMax, integer: false },
  printingCost: { label: 'Printing cost', min: 0, max: BOOK_LIMITS.priceMax, integer: false },
  ratings: { label: 'Ratings', min: 0, max: BOOK_LIMITS.ratingMax, integer: false },
  trailLimit: { label: 'Trial paragraphs', min: 0, max: BOOK_LIMITS.trailLimitMax, integer: true },
} as const;

/** The first problem with the typed values, in words, or null when the form may be sent. */
export function validateBookForm(values: BookFormValues): string | null {
  const required: Array<[keyof BookFormValues, string]> = [
    ['title', 'Title'],
    ['author', 'Author'],
    ['price', 'Price'],
    ['category', 'Category'],
    ['description', 'Description'],
  ];
  for (const [key, label] of required) if (!String(values[key]).trim()) return `${label} is required`;
  if (values.title.trim().length > BOOK_LIMITS.titleMax) return `Title must be at most ${BOOK_LIMITS.titleMax} characters`;
  if (values.author.trim().length > BOOK_LIMITS.authorMax) return `Author must be at most ${BOOK_LIMITS.authorMax} characters`;
  // What every Persona of the book prints, held to the catalogue's own rule before anything is sent.
  const unprintable =
    printableTextProblem(values.title, 'The title') ??
    printableTextProblem(values.author, 'The author') ??
    parseParagraphs(values.content)
      .map((paragraph, index) => printableTextProblem(paragraph, `Paragraph ${index + 1} of the content`))
      .find(Boolean);
  if (unprintable) return unprintable;
  const language = values.language.trim();
  if (language && (language.length < 2 || language.length > BOOK_LIMITS.languageMax)) return `Language must be 2 to ${BOOK_LIMITS.languageMax} characters`;
  if (values.description.trim().length > BOOK_LIMITS.descriptionMax) return `Description must be at most ${BOOK_LIMITS.descriptionMax} characters`;
  for (const [key, rule] of Object.entries(NUMBER_RULES) as Array<[keyof typeof NUMBER_RULES, (typeof NUMBER_RULES)[keyof typeof NUMBER_RULES]]>) {
    const text = values[key].trim();
    if (!text) continue;
    const n = Number(text);
    if (!Number.isFinite(n)) return `${rule.label} must be a number`;
    if (rule.integer && !Number.isInteger(n)) return `${rule.label} must be a whole number`;
    if (n < rule.min || n > rule.max) return `${rule.label} must be between ${rule.min} and ${rule.max}`;
    if (!rule.integer && Math.abs(n * 100 - Math.round(n * 100)) > 1e-6) return `${rule.label} can have at most two decimals`;
  }
  const tags = parseTags(values.tags);
  if (tags.length > BOOK_LIMITS.tagsMax) return `At most ${BOOK_LIMITS.tagsMax} tags`;
  const longTag = tags.find((tag) => tag.length > BOOK_LIMITS.tagMax);
  if (longTag) return `Tag "${longTag.slice(0, 20)}…" is longer than ${BOOK_LIMITS.tagMax} characters`;
  if (values.sampleMode === 'pages') {
    const blank = values.samplePages.findIndex((page) => !page.content.trim());
    if (blank >= 0) return `Sample page ${blank + 1} has no text`;
  }
  return null;
}

const FILE_LABELS: Record<BookFileField, string> = {
  coverImage: 'Cover image',
  images: 'Each image',
  fullPdf: 'Full PDF',
  samplePdf: 'Sample PDF',
  authorSignature: "The author's signature",
};

/**
 * Spec §5: PDFs at most 10 MB ("Full PDF must be under 10MB"), images only in image pickers, PDFs only in PDF pickers;
 * the author's signature a PNG (drawn over the page: its transparency is what lets the paper show) of at most 1 MB.
 */
export function checkFile(field: BookFileField, file: Pick<File, 'size' | 'type' | 'name'>): string | null {
  const wantsPdf = field === 'fullPdf' || field === 'samplePdf';
  if (field === 'authorSignature') {
    if (file.size > BOOK_LIMITS.signatureMaxBytes) return "The author's signature must be under 1MB";
    if (file.size === 0) return "The author's signature is empty";
    if (file.type !== 'image/png') return "The author's signature must be a PNG image (with a transparent background)";
    return null;
  }
  if (file.size > BOOK_LIMITS.fileMaxBytes) return `${FILE_LABELS[field]} must be under 10MB`;
  if (file.size === 0) return `${FILE_LABELS[field]} is empty`;
  if (wantsPdf && file.type !== 'application/pdf' && !/\.pdf$/i.test(file.name)) return `${FILE_LABELS[field]} must be a PDF file`;
  if (!wantsPdf && !file.type.startsWith('image/')) return `${FILE_LABELS[field]} must be an image`;
  if (!wantsPdf && file.type === 'image/svg+xml') return `${FILE_LABELS[field]} must be a JPEG, PNG, GIF or WebP image`;
  return null;
}

/**
 * The multipart entries of spec §7. Creating omits empty values; editing always sends tags, content
 * and the sample so that clearing them in the form clears them in the book. Files only when picked.
 */
export function bookFormEntries(values: BookFormValues, files: BookFiles, mode: 'create' | 'edit'): Array<[string, string | File]> {
  const entries: Array<[string, string | File]> = [];
  const text = (name: string, value: string) => {
    if (value.trim()) entries.push([name, value.trim()]);
  };
  text('title', values.title);
  text('author', values.author);
  text('language', values.language);
  text('description', values.description);
  text('category', values.category);
  text('price', values.price);
  text('printingCost', values.printingCost);
  text('ratings', values.ratings);
  text('trailLimit', values.trailLimit);
  const tags = parseTags(values.tags);
  const content = parseParagraphs(values.content);
  const sample =
    values.sampleMode === 'pages'
      ? values.samplePages.length > 0
        ? JSON.stringify(values.samplePages.map((p) => ({ chapter: p.chapter.trim(), content: p.content.trim(), isAd: p.isAd })))
        : ''
      : values.sampleText.trim();
  if (mode === 'edit' || tags.length > 0) entries.push(['tags', JSON.stringify(tags)]);
  if (mode === 'edit' || content.length > 0) entries.push(['content', JSON.stringify(content)]);
  if (mode === 'edit' || sample) entries.push(['sampleContent', sample]);
  if (files.coverImage) entries.push(['coverImage', files.coverImage]);
  for (const image of files.images ?? []) entries.push(['images', image]);
  if (files.fullPdf) entries.push(['fullPdf', files.fullPdf]);
  if (files.samplePdf) entries.push(['samplePdf', files.samplePdf]);
  if (files.authorSignature) entries.push(['authorSignature', files.authorSignature]);
  return entries;
}

/**
 * What the shop will show as the free sample once the form is saved, as the catalogue decides it
 * (the book's `sample`): the text sample first, else the sample PDF (one picked now or the
 * book's), else none, and then the book page offers no "Read a free sample".
 */
export function shownSample(values: BookFormValues, files: BookFiles, book: Pick<Book, 'samplePdf'> | null): { kind: SampleKind | null; note: string } {
  const text =
    values.sampleMode === 'pages'
      ? values.samplePages.some((page) => !page.isAd && page.content.trim())
      : values.sampleText.split(/\r?\n/).some((line) => line.trim());
  if (text) {
    return {
      kind: 'text',
      note: 'The shop shows this text as the free sample' + (files.samplePdf || book?.samplePdf ? ' (the sample PDF is not shown while there is one).' : '.'),
    };
  }
  if (files.samplePdf || book?.samplePdf) return { kind: 'pdf', note: 'The shop shows the sample PDF as the free sample (there is no text sample).' };
  return { kind: null, note: 'No free sample: the book page offers none until you write a sample text or upload a sample PDF.' };
}
