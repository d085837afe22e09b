import { MAX_PERSONA_FILE_BYTES, personaFileProblem } from './verify-persona';

describe('Persona file checks', () => {
  const file = (size: number, type = 'application/pdf', name = 'persona.pdf') => ({ name, type, size });
  it('accept a PDF or an EPUB under 10 MB, by type or by name', () => {
    expect(personaFileProblem(file(2048))).toBeNull();
    expect(personaFileProblem(file(MAX_PERSONA_FILE_BYTES))).toBeNull();
    expect(personaFileProblem(file(10, '', 'copy.PDF'))).toBeNull();
    expect(personaFileProblem(file(10, 'application/epub+zip', 'copy.epub'))).toBeNull();
    expect(personaFileProblem(file(10, '', 'copy.EPUB'))).toBeNull();
  });
  it('refuse no file, other types, empty and oversized files', () => {
    expect(personaFileProblem(null)).toBe('Choose a PDF or EPUB file to check');
    expect(personaFileProblem(file(10, 'image/png', 'a.png'))).toBe('Choose a PDF or EPUB file (.pdf, .epub)');
    expect(personaFileProblem(file(10, 'application/zip', 'book.zip'))).toBe('Choose a PDF or EPUB file (.pdf, .epub)');
    expect(personaFileProblem(file(0))).toBe('This file is empty');
    expect(personaFileProblem(file(MAX_PERSONA_FILE_BYTES + 1))).toBe('The file must be under 10MB');
  });
});
