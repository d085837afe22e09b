import { personaFileNames, personaFormatLabel, personaFormats } from './persona-formats';

describe('personaFormats', () => {
  it('prices the digital copy at the book price and the printed one with printing and ₹50 delivery', () => {
    const [digital, printed] = personaFormats({ price: 349.5, printingCost: 120, hasFullPdf: false, hasAuthorSignature: false });
    expect(digital).toMatchObject({ type: 'digital', label: 'Digital', total: 349.5, parts: [] });
    expect(printed).toMatchObject({ type: 'physical', label: 'Physical', total: 519.5 });
    expect(printed.parts).toEqual([
      { label: 'Book', amount: 349.5 },
      { label: 'Printing', amount: 120 },
      { label: 'Delivery', amount: 50 },
    ]);
    expect(printed.includes.join(' ')).toContain('dispatched within 2 business days and delivered 5–7 business days later');
  });

  it("says which files come: a PDF and an EPUB for a book typeset from its text, the PDF only for a publisher's PDF", () => {
    const [digital, printed] = personaFormats({ price: 100, printingCost: 0, hasFullPdf: false, hasAuthorSignature: false });
    expect(digital.includes[0]).toMatch(/^A PDF and an EPUB for phones and e-readers, with your name/);
    expect(printed.includes[0]).toContain('and a PDF and an EPUB for phones and e-readers at once');
    const [pdfOnly] = personaFormats({ price: 100, printingCost: 0, hasFullPdf: true, hasAuthorSignature: false });
    expect(pdfOnly.includes[0]).toMatch(/^A PDF in the publisher's own layout \(no EPUB for this book\)/);
  });

  it("promises the author's own signature only when the book has it", () => {
    const [signedForTheAuthor] = personaFormats({ price: 100, printingCost: 0, hasFullPdf: false, hasAuthorSignature: false });
    expect(signedForTheAuthor.includes[0]).toContain('with your name, the date and its signature, to download at once');
    expect(signedForTheAuthor.includes[0]).not.toContain("author's");
    const [signedByTheAuthor] = personaFormats({ price: 100, printingCost: 0, hasFullPdf: false, hasAuthorSignature: true });
    expect(signedByTheAuthor.includes[0]).toContain("with your name, the date and the author's own signature, to download at once");
  });

  it('adds no float error and treats a missing printing cost as free', () => {
    const [, printed] = personaFormats({ price: 0.1, printingCost: 0.2, hasFullPdf: false, hasAuthorSignature: false });
    expect(printed.total).toBe(50.3);
    expect(personaFormats({ price: 100, printingCost: undefined as unknown as number, hasFullPdf: false, hasAuthorSignature: false })[1].total).toBe(150);
  });
});

describe('the formats named', () => {
  it("names the files of a book: PDF + EPUB, or the PDF alone for a publisher's PDF", () => {
    expect(personaFileNames({ hasFullPdf: false })).toBe('PDF + EPUB');
    expect(personaFileNames({ hasFullPdf: true })).toBe('PDF');
  });

  it('names a bought Persona with the files that came, in a fixed order, and the format alone before they are ready', () => {
    expect(personaFormatLabel('digital', ['epub', 'pdf'])).toBe('Digital Persona (PDF + EPUB)');
    expect(personaFormatLabel('digital', ['pdf'])).toBe('Digital Persona (PDF)');
    expect(personaFormatLabel('physical', ['pdf', 'epub'])).toBe('Printed Persona (with the PDF + EPUB)');
    expect(personaFormatLabel('physical', [])).toBe('Printed Persona');
    expect(personaFormatLabel('digital', [])).toBe('Digital Persona');
  });
});
