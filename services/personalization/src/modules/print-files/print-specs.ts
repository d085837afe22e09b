// What a print-on-demand house asks of a book's files (issue 27), for the Personas the shop prints:
// the trim size (the A5 page a Persona is laid out on), a bleed of 0.125 in (3.175 mm) on every
// side, images of at least 300 ppi at their printed size, every font embedded, an even page count,
// and a cover spread whose spine is as wide as the pages are thick.
import { A5 } from '../persona-print/a5-page';

/** PDF points in an inch. */
export const POINTS_PER_INCH = 72;
/** The bleed on every side of every page of the interior and the cover: 0.125 in. */
export const BLEED = 0.125 * POINTS_PER_INCH;
/** The finished page: the shop's A5 (420 × 595 pt, 5.83 × 8.26 in). */
export const TRIM = { width: A5.width, height: A5.height } as const;
/** The least resolution of an image at the size it is printed. */
export const MIN_PPI = 300;
/** How far the cover's spine may be from the formula (pages × the paper's thickness). */
export const SPINE_TOLERANCE_INCHES = 0.0625;
/** A spine narrower than this has no text on it (print houses ask for 80 pages or more). */
export const MIN_SPINE_TEXT_INCHES = 0.25;

/**
 * The papers a printed Persona may be on, each as the thickness of one page (a leaf is two pages)
 * in inches: PRINT_PAPER chooses. The figures are print-on-demand houses' published ones.
 */
export const PAPERS = {
  /** 60# (90 gsm) white uncoated: the default. */
  white: 0.002252,
  /** 60# (90 gsm) cream uncoated. */
  cream: 0.0025,
  /** 80# (118 gsm) white coated, for books of pictures. */
  coated: 0.002347,
} as const;
export type PaperName = keyof typeof PAPERS;
export const DEFAULT_PAPER: PaperName = 'white';

/** The spine's width in inches for `pages` pages on `paper`. */
export function spineInches(pages: number, paper: PaperName): number {
  return pages * PAPERS[paper];
}

/** The cover spread's size in points: back, spine and front side by side, with the bleed around them. */
export function coverSize(pages: number, paper: PaperName): { width: number; height: number; spine: number } {
  const spine = spineInches(pages, paper) * POINTS_PER_INCH;
  return { width: 2 * TRIM.width + spine + 2 * BLEED, height: TRIM.height + 2 * BLEED, spine };
}
