import { formatPurchaseDate, MAX_PDF_BYTES, pdfFileProblem } from './verify-persona';

describe('purchase date', () => {
  it('prints YYYY-MM-DD as day month year', () => {
    expect(formatPurchaseDate('2025-03-07')).toBe('7 March 2025');
    expect(formatPurchaseDate('2024-12-31T18:30:00.000Z')).toBe('31 December 2024');
    expect(formatPurchaseDate('someday')).toBe('someday');
    expect(formatPurchaseDate('2025-13-01')).toBe('2025-13-01');
  });
});

describe('PDF file checks', () => {
  const pdf = (size: number, type = 'application/pdf', name = 'persona.pdf') => ({ name, type, size });
  it('accept a PDF under 10 MB', () => {
    expect(pdfFileProblem(pdf(2048))).toBeNull();
    expect(pdfFileProblem(pdf(MAX_PDF_BYTES))).toBeNull();
    expect(pdfFileProblem(pdf(10, '', 'copy.PDF'))).toBeNull();
  });
  it('refuse no file, other types, empty and oversized files', () => {
    expect(pdfFileProblem(null)).toBe('Choose a PDF file to check');
    expect(pdfFileProblem(pdf(10, 'image/png', 'a.png'))).toBe('Choose a PDF file (.pdf)');
    expect(pdfFileProblem(pdf(0))).toBe('This file is empty');
    expect(pdfFileProblem(pdf(MAX_PDF_BYTES + 1))).toBe('The PDF must be under 10MB');
  });
});
