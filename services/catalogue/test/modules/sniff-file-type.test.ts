import { sniffFileType } from '../../src/modules/files/sniff-file-type';
import { likePattern } from '../../src/modules/books/books.repository';
import { normaliseTags } from '../../src/modules/books/parse-book-form';
import { PNG_1PX, tinyPdf } from '../support';

describe('sniffFileType', () => {
  it.each([
    [PNG_1PX, 'image/png'],
    [Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]), 'image/jpeg'],
    [Buffer.from('GIF89a....'), 'image/gif'],
    [Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1'), 'image/webp'],
    [tinyPdf(), 'application/pdf'],
  ])('recognises %#', (bytes, mime) => {
    expect(sniffFileType(bytes)?.mime).toBe(mime);
  });

  it.each([
    ['HTML', Buffer.from('<!doctype html><script>alert(1)</script>')],
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['a PDF header without a trailer', Buffer.from('%PDF-1.7 then html <script>')],
    ['empty', Buffer.alloc(0)],
  ])('refuses %s', (_label, bytes) => {
    expect(sniffFileType(bytes)).toBeNull();
  });
});

describe('search helpers', () => {
  it('escapes LIKE wildcards', () => {
    expect(likePattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });

  it('trims tags and drops blanks and case duplicates', () => {
    expect(normaliseTags([' Fiction ', 'fiction', '', 'Self-Help'])).toEqual(['Fiction', 'Self-Help']);
  });
});
