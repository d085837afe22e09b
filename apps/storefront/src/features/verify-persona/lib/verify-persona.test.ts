import { MAX_PDF_BYTES, pdfFileProblem } from './verify-persona';

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
