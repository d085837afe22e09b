// How a book's text source marks a chapter: a paragraph opening with "# " is its heading. The PDF's
// typesetting and the EPUB's chapters read it alike.
export const CHAPTER_PREFIX = /^#\s+/;

export function isChapterHeading(paragraph: string): boolean {
  return CHAPTER_PREFIX.test(paragraph);
}
