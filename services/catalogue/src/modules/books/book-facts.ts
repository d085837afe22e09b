// The facts a book's page states that are counted, not typed: the words of its full text (the
// pages of its full PDF are counted where the upload is inspected: files/inspect-upload.ts).

/** Words of the full text (runs of non-space characters); null when it has none. */
export function countWords(paragraphs: readonly string[]): number | null {
  const words = paragraphs.reduce((n, paragraph) => n + (paragraph.match(/\S+/g)?.length ?? 0), 0);
  return words > 0 ? words : null;
}
