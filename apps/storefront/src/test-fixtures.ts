// A Book builder for unit tests (only the fields a test names matter).
import type { Book } from '@persona/contracts';

let counter = 0;

export function makeBook(overrides: Partial<Book> = {}): Book {
  counter += 1;
  return {
    _id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    title: `Book ${counter}`,
    author: `Author ${counter}`,
    description: 'A description.',
    price: 349.5,
    printingCost: 0,
    tags: [],
    ratings: { average: 4 },
    category: null,
    sampleContent: '',
    trailLimit: 3,
    coverImage: null,
    images: [],
    samplePdf: null,
    sample: null,
    hasFullPdf: false,
    hasAuthorSignature: false,
    language: 'English',
    pageCount: null,
    wordCount: null,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}
