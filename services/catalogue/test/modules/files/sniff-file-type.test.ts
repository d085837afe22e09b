import { hasActiveMarkup, imageProblem, sniffFileType } from '../../../src/modules/files/sniff-file-type';
import { prefixTsQuery } from '../../../src/modules/books/book-lists.repository';
import { normaliseTags } from '../../../src/modules/books/parse-book-form';
import { PNG_1PX, tinyPdf } from '../../support';

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

describe('judging an image past its signature', () => {
  const gif = Buffer.from(
    'GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;',
    'latin1',
  );

  it('accepts real images', () => {
    for (const bytes of [PNG_1PX, gif]) {
      const type = sniffFileType(bytes)!;
      expect({ mime: type.mime, problem: imageProblem(bytes, type), markup: hasActiveMarkup(bytes) }).toEqual({
        mime: type.mime,
        problem: null,
        markup: false,
      });
    }
  });

  it.each([
    ['a GIF header with a page behind it', Buffer.from('GIF89a<script>alert(1)</script>;', 'latin1')],
    ['a PNG with HTML appended', Buffer.concat([PNG_1PX, Buffer.from('<html><body onload=x>')])],
    ['a JPEG with an SVG inside', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<svg onload=alert(1)>')])],
    ['a javascript: URL', Buffer.concat([gif.subarray(0, 20), Buffer.from('javascript:alert(1)'), gif.subarray(20)])],
  ])('finds markup in %s', (_label, bytes) => {
    expect(hasActiveMarkup(bytes)).toBe(true);
  });

  it.each([
    ['a PNG signature alone', PNG_1PX.subarray(0, 8), 'is not a complete PNG image'],
    ['a PNG cut before its end', PNG_1PX.subarray(0, PNG_1PX.length - 12), 'is not a complete PNG image'],
    ['a GIF header alone', Buffer.from('GIF89a....'), 'is not a complete GIF image'],
    ['a WebP claiming more than it has', Buffer.from('RIFF\xff\x00\x00\x00WEBPVP8 ', 'latin1'), 'is not a complete WebP image'],
  ])('finds %s incomplete', (_label, bytes, problem) => {
    expect(imageProblem(bytes, sniffFileType(bytes)!)).toBe(problem);
  });
});

describe('search helpers', () => {
  it('turns a search into a prefix full-text query of its words only, whatever else it holds', () => {
    expect(prefixTsQuery('Rao  tiffin')).toBe('rao:* & tiffin:*');
    expect(prefixTsQuery("tiffin:* | !rao & ( o'brien")).toBe('tiffin:* & rao:* & o:* & brien:*');
    expect(prefixTsQuery('Zoë अनन्या')).toBe('zoë:* & अनन्या:*');
    expect(prefixTsQuery('%_\\ .* ()')).toBeNull();
  });

  it('trims tags and drops blanks and case duplicates', () => {
    expect(normaliseTags([' Fiction ', 'fiction', '', 'Self-Help'])).toEqual(['Fiction', 'Self-Help']);
  });
});
