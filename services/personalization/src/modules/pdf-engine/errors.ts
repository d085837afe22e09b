/** The source PDF cannot be parsed (or is encrypted, or has no pages), or the text source is empty. */
export class UnreadableSourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnreadableSourceError';
  }
}

/** Text of a Persona that no shipped face prints (checked by contracts' personaPrintProblem, as the preview checks it): trying again cannot help. */
export class UnprintableTextError extends Error {
  override readonly name = 'UnprintableTextError';
}
