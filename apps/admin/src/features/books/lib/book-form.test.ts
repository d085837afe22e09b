import type { Book } from '@persona/contracts';
import {
  bookFormEntries,
  checkFile,
  EMPTY_BOOK_FORM,
  shownSample,
  parseParagraphs,
  parseTags,
  validateBookForm,
  valuesFromBook,
  type BookFormValues,
} from './book-form';

const filled: BookFormValues = {
  ...EMPTY_BOOK_FORM,
  title: ' The Quiet Garden ',
  author: 'Mira Das',
  description: 'A novel.',
  category: '0b5c1a52-6d8e-4f57-9a43-2f0f5a0c7a11',
  price: '349.5',
};

describe('the book form', () => {
  it('types tags comma separated and content one paragraph per line, trimmed, blanks dropped', () => {
    expect(parseTags(' Fiction, Memoir ,, Self-Help ,')).toEqual(['Fiction', 'Memoir', 'Self-Help']);
    expect(parseParagraphs('First.\r\n\n  Second.  \n')).toEqual(['First.', 'Second.']);
  });

  it('opens in English and takes a language of 2 to 40 characters', () => {
    expect(EMPTY_BOOK_FORM.language).toBe('English');
    expect(validateBookForm({ ...filled, language: 'Malayalam' })).toBeNull();
    expect(validateBookForm({ ...filled, language: 'M' })).toBe('Language must be 2 to 40 characters');
    expect(validateBookForm({ ...filled, language: 'x'.repeat(41) })).toBe('Language must be 2 to 40 characters');
  });

  it('requires title, author, price, category and description', () => {
    expect(validateBookForm(EMPTY_BOOK_FORM)).toBe('Title is required');
    expect(validateBookForm({ ...filled, category: '' })).toBe('Category is required');
    expect(validateBookForm({ ...filled, description: '   ' })).toBe('Description is required');
    expect(validateBookForm(filled)).toBeNull();
  });

  it('refuses, naming the field and the characters, a title, author or paragraph no Persona can print, and takes every script it can', () => {
    expect(validateBookForm({ ...filled, title: 'सूरज की किरण', author: 'সূর্য সেন', content: 'தமிழ்\nفاطمة الزهراء' })).toBeNull();
    expect(validateBookForm({ ...filled, author: 'Li Bai 李白' })).toBe('The author has characters no Persona can print: “李” (U+674E), “白” (U+767D)');
    expect(validateBookForm({ ...filled, title: 'Sunrise 🌅' })).toBe('The title has a character no Persona can print: “🌅” (U+1F305)');
    expect(validateBookForm({ ...filled, content: 'One\n\n  \nTwo 🙂' })).toBe(
      'Paragraph 2 of the content has a character no Persona can print: “🙂” (U+1F642)',
    );
  });

  it('checks the numeric fields', () => {
    expect(validateBookForm({ ...filled, price: 'abc' })).toBe('Price must be a number');
    expect(validateBookForm({ ...filled, price: '-1' })).toBe('Price must be between 0 and 100000');
    expect(validateBookForm({ ...filled, price: '10.005' })).toBe('Price can have at most two decimals');
    expect(validateBookForm({ ...filled, ratings: '6' })).toBe('Ratings must be between 0 and 5');
    expect(validateBookForm({ ...filled, trailLimit: '2.5' })).toBe('Trial paragraphs must be a whole number');
    expect(validateBookForm({ ...filled, printingCost: '40', ratings: '4.5', trailLimit: '3' })).toBeNull();
  });

  it('refuses a sample page without text', () => {
    expect(validateBookForm({ ...filled, sampleMode: 'pages', samplePages: [{ chapter: 'One', content: ' ', isAd: false }] })).toBe(
      'Sample page 1 has no text',
    );
  });

  it('takes PDFs only in the PDF pickers, images only in the image pickers, each under 10 MB', () => {
    const pdf = { name: 'book.pdf', type: 'application/pdf', size: 1000 };
    expect(checkFile('fullPdf', pdf)).toBeNull();
    expect(checkFile('fullPdf', { ...pdf, size: 10 * 1024 * 1024 + 1 })).toBe('Full PDF must be under 10MB');
    expect(checkFile('samplePdf', { ...pdf, size: 11 * 1024 * 1024 })).toBe('Sample PDF must be under 10MB');
    expect(checkFile('samplePdf', { name: 'page.html', type: 'text/html', size: 10 })).toBe('Sample PDF must be a PDF file');
    expect(checkFile('coverImage', pdf)).toBe('Cover image must be an image');
    expect(checkFile('coverImage', { name: 'c.svg', type: 'image/svg+xml', size: 10 })).toBe('Cover image must be a JPEG, PNG, GIF or WebP image');
    expect(checkFile('images', { name: 'c.png', type: 'image/png', size: 10 })).toBeNull();
  });

  it('omits empty values when creating and serialises the lists as JSON', () => {
    const entries = bookFormEntries({ ...filled, tags: 'Fiction, Tea', content: 'One\nTwo' }, {}, 'create');
    expect(entries).toEqual([
      ['title', 'The Quiet Garden'],
      ['author', 'Mira Das'],
      ['language', 'English'],
      ['description', 'A novel.'],
      ['category', filled.category],
      ['price', '349.5'],
      ['tags', '["Fiction","Tea"]'],
      ['content', '["One","Two"]'],
    ]);
  });

  it('always sends tags, content and sample when editing, so clearing them clears the book', () => {
    const names = bookFormEntries(filled, {}, 'edit').map(([name, value]) => `${name}=${value as string}`);
    expect(names).toEqual(expect.arrayContaining(['tags=[]', 'content=[]', 'sampleContent=']));
  });

  it('sends sample pages as a JSON list and picked files as parts', () => {
    const cover = new File(['x'], 'c.png', { type: 'image/png' });
    const entries = bookFormEntries(
      { ...filled, sampleMode: 'pages', samplePages: [{ chapter: ' One ', content: ' Text ', isAd: false }] },
      { coverImage: cover },
      'create',
    );
    expect(entries).toContainEqual(['sampleContent', '[{"chapter":"One","content":"Text","isAd":false}]']);
    expect(entries).toContainEqual(['coverImage', cover]);
  });

  it('opens an existing book with its values, full text and sample pages', () => {
    const book = {
      _id: 'b1',
      title: 'T',
      author: 'A',
      description: 'D',
      price: 299,
      printingCost: 0,
      tags: ['Fiction', 'Tea'],
      ratings: { average: 4.5 },
      category: { _id: 'c1', name: 'Novels' },
      sampleContent: [{ chapter: 'One', content: 'Text', isAd: false }],
      trailLimit: 0,
      coverImage: null,
      images: [],
      samplePdf: null,
      sample: 'text',
      hasFullPdf: false,
      hasAuthorSignature: false,
      language: 'Tamil',
      pageCount: null,
      wordCount: null,
      createdAt: '',
      updatedAt: '',
    } satisfies Book;
    const values = valuesFromBook(book, ['P1', 'P2']);
    expect(values).toMatchObject({
      language: 'Tamil',
      category: 'c1',
      price: '299',
      printingCost: '',
      ratings: '4.5',
      tags: 'Fiction, Tea',
      content: 'P1\nP2',
      sampleMode: 'pages',
    });
    expect(values.samplePages).toEqual(book.sampleContent);
  });

  it("takes the author's signature as a PNG of at most 1 MB, and sends it", () => {
    const png = { name: 'sig.png', type: 'image/png', size: 20_000 };
    expect(checkFile('authorSignature', png)).toBeNull();
    expect(checkFile('authorSignature', { ...png, type: 'image/jpeg', name: 'sig.jpg' })).toBe(
      "The author's signature must be a PNG image (with a transparent background)",
    );
    expect(checkFile('authorSignature', { ...png, size: 1024 * 1024 + 1 })).toBe("The author's signature must be under 1MB");
    const file = new File([new Uint8Array([1])], 'sig.png', { type: 'image/png' });
    expect(bookFormEntries(filled, { authorSignature: file }, 'create')).toContainEqual(['authorSignature', file]);
    expect(bookFormEntries(filled, {}, 'edit').map(([name]) => name)).not.toContain('authorSignature');
  });

  it('says what the shop shows as the free sample: the text first, else the sample PDF, else none', () => {
    const pdf = new File([new Uint8Array([1])], 's.pdf', { type: 'application/pdf' });
    const current = { samplePdf: { url: '/api/files/samples/x.pdf' } };
    expect(shownSample({ ...filled, sampleText: 'A line.' }, { samplePdf: pdf }, null)).toEqual({
      kind: 'text',
      note: 'The shop shows this text as the free sample (the sample PDF is not shown while there is one).',
    });
    expect(shownSample({ ...filled, sampleText: ' \n ' }, { samplePdf: pdf }, null).kind).toBe('pdf');
    expect(shownSample({ ...filled, sampleText: '' }, {}, current)).toEqual({
      kind: 'pdf',
      note: 'The shop shows the sample PDF as the free sample (there is no text sample).',
    });
    // Only ad pages: nothing to read.
    const adsOnly: BookFormValues = { ...filled, sampleMode: 'pages', samplePages: [{ chapter: 'Ad', content: 'Buy it', isAd: true }] };
    expect(shownSample(adsOnly, {}, null)).toEqual({
      kind: null,
      note: 'No free sample: the book page offers none until you write a sample text or upload a sample PDF.',
    });
  });
});
