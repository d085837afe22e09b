// A book row as the API shows it: the list item, and the book page's book (the item and its sample).
import { paiseToRupees, type Book, type BookSummary, type SampleContent, type SitemapEntry, type Suggestion } from '@persona/contracts';
import { fileUrl } from '../files/file-storage';
import type { SuggestionRows } from './book-lists.repository';
import type { BookRow, SummaryRow } from './books.repository';

export function toBook(row: BookRow): Book {
  return { ...toSummary(row), sampleContent: row.sample_content as SampleContent };
}

export function toSummary(row: SummaryRow): BookSummary {
  return {
    _id: row.id,
    title: row.title,
    author: row.author,
    description: row.description,
    price: paiseToRupees(row.price_paise),
    printingCost: paiseToRupees(row.printing_cost_paise),
    tags: row.tags,
    ratings: { average: Number(row.rating) },
    category: row.category_id && row.category_name ? { _id: row.category_id, name: row.category_name } : null,
    trailLimit: row.trail_limit,
    coverImage: row.cover_key ? { url: fileUrl(row.cover_key) } : null,
    images: row.image_keys.map((key) => ({ url: fileUrl(key) })),
    samplePdf: row.sample_pdf_key ? { url: fileUrl(row.sample_pdf_key) } : null,
    // The text sample first (the reader's own pages), else the uploaded PDF.
    sample: row.has_text_sample ? 'text' : row.sample_pdf_key ? 'pdf' : null,
    hasFullPdf: row.has_full_pdf,
    hasAuthorSignature: row.has_author_signature,
    language: row.language,
    pageCount: row.page_count,
    wordCount: row.word_count,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The header search box's suggestions: books first, then authors. */
export function toSuggestions(rows: SuggestionRows): Suggestion[] {
  return [
    ...rows.books.map((b): Suggestion => ({ kind: 'book', _id: b.id, title: b.title, author: b.author })),
    ...rows.authors.map((a): Suggestion => ({ kind: 'author', author: a.author, books: a.books })),
  ];
}

export const toSitemapEntry = (row: { id: string; updated_at: Date }): SitemapEntry => ({ _id: row.id, updatedAt: row.updated_at.toISOString() });
