// What reading one untrusted file may cost, counted on what the reading
// actually produces (inflated bytes, ZIP entries, objects, pages, pixels),
// never on the sizes the file declares: a 51 KB PDF can inflate to 50 MB and a
// ZIP entry can say it holds 0 bytes and unpack to 64 MB.

/** The limits of one file's reading. */
export interface FileBudget {
  /** Bytes any one decoded stream or unpacked ZIP entry may produce. */
  streamBytes: number;
  /** Bytes all decoded streams or unpacked entries of the file may produce together. */
  totalBytes: number;
  /** PDF objects (top-level and inside object streams). */
  objects: number;
  /** PDF pages (page objects found). */
  pages: number;
  /** Nesting of arrays and dictionaries. */
  depth: number;
  /** Entries of a ZIP archive. */
  entries: number;
  /** Pixels of any one image (width × height as its decoder will allocate them). */
  imagePixels: number;
  /** Width or height of any one image, in pixels. */
  imageSide: number;
}

/** Which limit a file went over (the error's `code` carries it, upper-cased). */
export type BudgetLimit = keyof FileBudget;

const MB = 1024 * 1024;

/**
 * The budget of a PDF or EPUB of up to 40 MB: generous for a real book (a 300-page typeset
 * book inflates to about 5 MB; a PDF of photographs keeps its pictures as JPEG, counted in
 * pixels), ruinous for nothing: at most 256 MB inflated (about a second of one thread).
 */
export const DOCUMENT_BUDGET: FileBudget = {
  streamBytes: 64 * MB,
  totalBytes: 256 * MB,
  objects: 100_000,
  pages: 5_000,
  depth: 64,
  entries: 10_000,
  imagePixels: 40_000_000,
  imageSide: 20_000,
};

/** An uploaded cover or picture: sharp refuses more than 50 million pixels, the storefront shows at most 640 px. */
export const IMAGE_BUDGET: FileBudget = { ...DOCUMENT_BUDGET, imagePixels: 40_000_000, imageSide: 16_383 };

/** Words a person reads for each limit, in "… more than {what}" sentences. */
const WHAT: Record<BudgetLimit, (n: number) => string> = {
  streamBytes: (n) => `${mb(n)} in one of its parts once unpacked`,
  totalBytes: (n) => `${mb(n)} in all once unpacked`,
  objects: (n) => `${n.toLocaleString('en-IN')} objects`,
  pages: (n) => `${n.toLocaleString('en-IN')} pages`,
  depth: (n) => `${n} levels of nesting`,
  entries: (n) => `${n.toLocaleString('en-IN')} files inside it`,
  imagePixels: (n) => `${(n / 1_000_000).toLocaleString('en-IN')} million pixels in one picture`,
  imageSide: (n) => `${n.toLocaleString('en-IN')} pixels across or down in one picture`,
};

function mb(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/**
 * A file refused for what reading it would cost, or for being unreadable: `statusCode` 413
 * (it would unpack or grow past a size limit) or 422 (its structure is over a limit or
 * broken, or reading it ran out of time or memory), a message a person can act on, and a
 * `code` naming the limit. `expose`: the message is written for the client (service-kit
 * answers it as is).
 */
export class FileRefusedError extends Error {
  override readonly name = 'FileRefusedError';
  readonly expose = true;
  constructor(
    readonly statusCode: 413 | 422,
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** `code` of a budget refusal: `TOO_MANY_PAGES`-style names of each limit. */
export const BUDGET_CODES: Record<BudgetLimit, string> = {
  streamBytes: 'UNPACKS_TOO_LARGE',
  totalBytes: 'UNPACKS_TOO_LARGE',
  objects: 'TOO_MANY_OBJECTS',
  pages: 'TOO_MANY_PAGES',
  depth: 'NESTED_TOO_DEEP',
  entries: 'TOO_MANY_ENTRIES',
  imagePixels: 'IMAGE_TOO_LARGE',
  imageSide: 'IMAGE_TOO_LARGE',
};

/** The refusal for going over `limit`; `file` names the file for the sentence ("This PDF"). */
export function overBudget(limit: BudgetLimit, budget: FileBudget, file: string): FileRefusedError {
  const sized = limit === 'streamBytes' || limit === 'totalBytes' || limit === 'imagePixels' || limit === 'imageSide';
  return new FileRefusedError(sized ? 413 : 422, `${file} would have more than ${WHAT[limit](budget[limit])}, more than this shop reads`, BUDGET_CODES[limit]);
}

/** A file whose structure cannot be read (not a budget: broken, or not what it claims to be). */
export function unreadable(file: string, why: string): FileRefusedError {
  return new FileRefusedError(422, `${file} cannot be read: ${why}`, 'UNREADABLE_FILE');
}

/**
 * The running count of one file's reading against its budget. Every reader of the package
 * takes one; a reader that has produced bytes says so with `produced`, and each count goes
 * through `count`, which throws the refusal the moment a limit is passed.
 */
export class BudgetMeter {
  private total = 0;
  private readonly counts: Partial<Record<BudgetLimit, number>> = {};

  constructor(
    readonly budget: FileBudget,
    /** How the file is named in refusals ("This PDF", "This EPUB", "The cover image"). */
    readonly file: string,
  ) {}

  /** Bytes produced by one stream or entry so far (`streamSoFar`), and `more` just produced. */
  produced(more: number, streamSoFar: number): void {
    this.total += more;
    if (streamSoFar > this.budget.streamBytes) throw overBudget('streamBytes', this.budget, this.file);
    if (this.total > this.budget.totalBytes) throw overBudget('totalBytes', this.budget, this.file);
  }

  /** Bytes produced in all so far. */
  get producedBytes(): number {
    return this.total;
  }

  /** Adds `n` to a counted limit (objects, pages, entries). */
  count(limit: 'objects' | 'pages' | 'entries', n = 1): void {
    const value = (this.counts[limit] ?? 0) + n;
    this.counts[limit] = value;
    if (value > this.budget[limit]) throw overBudget(limit, this.budget, this.file);
  }

  counted(limit: 'objects' | 'pages' | 'entries'): number {
    return this.counts[limit] ?? 0;
  }

  /** A nesting level reached. */
  depth(level: number): void {
    if (level > this.budget.depth) throw overBudget('depth', this.budget, this.file);
  }

  /** One image's size as its decoder will allocate it. */
  image(width: number, height: number): void {
    if (width > this.budget.imageSide || height > this.budget.imageSide) throw overBudget('imageSide', this.budget, this.file);
    if (width * height > this.budget.imagePixels) throw overBudget('imagePixels', this.budget, this.file);
  }
}
