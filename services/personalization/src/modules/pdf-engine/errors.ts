/** The source PDF cannot be parsed (or is encrypted, or has no pages), or the text source is empty. */
export class UnreadableSourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnreadableSourceError';
  }
}
