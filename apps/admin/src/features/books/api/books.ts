import type { Book, BookQuery, BookSummary, Envelope, ListOf } from '@persona/contracts';
import { api, apiRequest, type QueryValue } from '@persona/web-kit/api-client';

export function listBooks(query: BookQuery, signal?: AbortSignal): Promise<ListOf<BookSummary>> {
  return api.get<ListOf<BookSummary>>('/books', query as Record<string, QueryValue>, signal);
}

/** The book and its full text (admin only), for the edit form. */
export async function getBookForEdit(id: string, signal?: AbortSignal): Promise<{ book: Book; content: string[] }> {
  const path = `/books/${encodeURIComponent(id)}`;
  const [book, content] = await Promise.all([
    api.get<Envelope<Book>>(path, undefined, signal),
    api.get<Envelope<{ content: string[] }>>(`${path}/content`, undefined, signal),
  ]);
  return { book: book.data, content: content.data.content };
}

export async function saveBook(form: FormData, id?: string): Promise<Book> {
  const answer = await apiRequest<Envelope<Book>>(id ? `/books/${encodeURIComponent(id)}` : '/books', { method: id ? 'PUT' : 'POST', body: form });
  return answer.data;
}

export async function deleteBook(id: string): Promise<void> {
  await api.delete(`/books/${encodeURIComponent(id)}`);
}
