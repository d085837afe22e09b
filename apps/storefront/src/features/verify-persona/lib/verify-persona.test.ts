import { licenceNotice, MAX_PERSONA_FILE_BYTES, personaFileProblem, privacyNote } from './verify-persona';

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

describe('a Persona whose licence ended', () => {
  it('says nothing while the licence holds', () => {
    expect(licenceNotice({ status: 'active' })).toBeNull();
  });
  it('says refunded, on the shop’s day, and that it stays genuine', () => {
    // 20:00 UTC on the 24th is already the 25th in India.
    expect(licenceNotice({ status: 'refunded', endedAt: '2026-11-24T20:00:00.000Z' })).toEqual({
      title: 'Refunded',
      text: 'This Persona’s order was refunded in full on 25 November 2026. It is still a genuine Persona, but its licence has ended: it can no longer be downloaded.',
      replacedBy: null,
    });
  });
  it('says replaced, by which Persona', () => {
    const notice = licenceNotice({ status: 'replaced', endedAt: '2026-11-25T06:00:00.000Z', replacedBy: 'PRS-7K3M-9QXD-2HFA-J8TW' });
    expect(notice?.title).toBe('Replaced');
    expect(notice?.text).toMatch(/^This Persona was replaced on 25 November 2026 by Persona PRS-7K3M-9QXD-2HFA-J8TW, made again with corrected details\./);
    expect(notice?.replacedBy).toBe('PRS-7K3M-9QXD-2HFA-J8TW');
  });
});

describe('what the verify page says stays private', () => {
  it('names only what the book shows, and says a gift keeps its giver and message private, checkable with the salts in the file', () => {
    expect(privacyNote({ gift: false, record: '{}' })).toBe(
      'Only what the book shows everyone is shown here: the name printed in it, the title, the author and the date. Nothing else about the buyer is shared.',
    );
    const gift = privacyNote({ gift: true, record: '{"v":2}' });
    expect(gift).toContain('who gave it and their message stay private');
    expect(gift).toContain('salts printed on its last page');
    // A gift signed before issue 24: its record is not shown, so there is nothing to check against here.
    const old = privacyNote({ gift: true, record: null });
    expect(old).toContain('who gave it and their message stay private, and are not shown.');
    expect(old).not.toContain('salts');
  });
});
