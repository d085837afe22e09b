// The server's render of the public pages, from the same components the browser hydrates:
// each page with its data in the HTML, its head, and its status.
import type { Book, BookSummary } from '@persona/contracts';
import type { PageData } from './lib/api-data';
import { makeBook } from './test-fixtures';
import { preloadPages, render, routeQueries } from './entry-server';

const ORIGIN = 'https://shop.example';

function summary(book: Book): BookSummary {
  const { sampleContent: _sample, ...rest } = book;
  return rest;
}

function dataFor(url: string, answers: Record<string, unknown>): PageData {
  const [pathname, search = ''] = url.split('?');
  const data: PageData = {};
  for (const path of routeQueries(pathname!, search)) {
    const answer = answers[path];
    data[path] = answer instanceof Error ? { ok: false, status: Number(answer.message), message: 'Book not found' } : { ok: true, data: answer };
  }
  return data;
}

beforeAll(() => preloadPages());

describe('server rendering', () => {
  const book = makeBook({
    title: 'The Backwaters Ledger',
    author: 'Meera Kuruvilla',
    description: 'A mystery set in Kochi.',
    price: 449,
    tags: ['Fiction', 'Mystery', 'India'],
    coverImage: { url: '/api/files/covers/x.jpg' },
    sampleContent: 'The ledger would not balance.',
  });
  const others = [makeBook({ title: 'Salt and Sail' }), makeBook({ title: 'Rain Ledger' })];

  it('renders the book page with its title, author, price, description, cover and related books', () => {
    const url = `/book/${book._id}`;
    const page = render(
      url,
      dataFor(url, { [`/books/${book._id}`]: { data: book }, [`/books/${book._id}/related?limit=4`]: { data: others.map(summary) } }),
      ORIGIN,
    );
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1 class="book-detail__title">The Backwaters Ledger</h1>');
    expect(page.html).toContain('Meera Kuruvilla');
    expect(page.html).toContain('₹449.00');
    expect(page.html).not.toContain('Rs ');
    expect(page.html).toContain('A mystery set in Kochi.');
    expect(page.html).toContain('src="/api/files/covers/x.jpg"');
    expect(page.html).toContain('You Might Also Like');
    expect(page.html).toContain('Salt and Sail');
    expect(page.head).toContain('<title>The Backwaters Ledger by Meera Kuruvilla | Persona Books</title>');
    expect(page.head).toContain(`<link rel="canonical" href="${ORIGIN}/book/${book._id}" />`);
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page.head!)![1]!);
    expect(jsonLd).toMatchObject({
      '@type': 'Book',
      name: 'The Backwaters Ledger',
      offers: { '@type': 'Offer', price: '449.00', priceCurrency: 'INR', availability: 'https://schema.org/InStock' },
    });
  });

  it('answers an unknown book with "Book not found", 404 and noindex', () => {
    const url = `/book/${book._id}`;
    const page = render(url, dataFor(url, { [`/books/${book._id}`]: new Error('404'), [`/books/${book._id}/related?limit=4`]: new Error('404') }), ORIGIN);
    expect(page.status).toBe(404);
    expect(page.html).toContain('Book not found');
    expect(page.head).toContain('<meta name="robots" content="noindex" />');
  });

  it('renders the home page with its featured cards and the explore page with its page of books and chips', () => {
    const home = render('/', dataFor('/', { '/books?limit=8': { data: [summary(book)], meta: { total: 1, page: 1, limit: 8 } } }), ORIGIN);
    expect(home.status).toBe(200);
    expect(home.html).toContain(`href="/book/${book._id}"`);
    expect(home.html).toContain('See all books');

    const url = '/books?tag=mystery&page=2';
    const explore = render(
      url,
      dataFor(url, {
        '/books?tag=mystery&page=2&limit=24': { data: [summary(book)], meta: { total: 25, page: 2, limit: 24 } },
        '/tags?sort=count&limit=40': {
          data: [
            { tag: 'mystery', count: 25 },
            { tag: 'fiction', count: 3 },
          ],
          meta: { total: 2, page: 1, limit: 40 },
        },
      }),
      ORIGIN,
    );
    expect(explore.html).toContain(`data-book-id="${book._id}"`);
    expect(explore.html).toContain('25 books found');
    expect(explore.html).toMatch(/aria-current="true"[^>]*>mystery</);
    expect(explore.html).toContain('aria-label="Page 1"');
    expect(explore.head).toContain(`<link rel="canonical" href="${ORIGIN}/books?tag=mystery&amp;page=2" />`);
  });

  it('renders the static pages, and an unknown page as 404 noindex', () => {
    const faqs = render('/faqs', {}, ORIGIN);
    expect(faqs.status).toBe(200);
    expect(faqs.html).toContain('<h1');
    const missing = render('/no/such/page', {}, ORIGIN);
    expect(missing.status).toBe(404);
    expect(missing.html).toContain('Oops! Page not found');
    expect(missing.head).toContain('noindex');
  });
});
