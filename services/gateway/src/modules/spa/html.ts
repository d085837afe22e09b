// Builds the storefront's HTML per page: the built index.html with the page's
// own <title>, description, canonical link and Open Graph tags in <head>, so
// link previews work without JavaScript.
const HEAD_MARKER = '<!--app-head-->';
export const DESCRIPTION_MAX = 150;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Cuts at 150 characters on a word boundary where one is near, with an ellipsis. */
export function truncate(text: string, max = DESCRIPTION_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export interface PageHead {
  title: string;
  description?: string;
  canonical?: string;
  noindex?: boolean;
  og?: { type: string; title: string; description: string; url: string; image?: string };
  /** The page's largest image (a book's cover): fetched at once, beside the scripts, instead of after them. */
  preloadImage?: string;
}

export function renderHead(head: PageHead): string {
  const tags = [`<title>${escapeHtml(head.title)}</title>`];
  if (head.description !== undefined) tags.push(`<meta name="description" content="${escapeHtml(head.description)}" />`);
  if (head.canonical) tags.push(`<link rel="canonical" href="${escapeHtml(head.canonical)}" />`);
  if (head.noindex) tags.push('<meta name="robots" content="noindex" />');
  if (head.preloadImage) tags.push(`<link rel="preload" as="image" href="${escapeHtml(head.preloadImage)}" fetchpriority="high" />`);
  if (head.og) {
    const og = head.og;
    tags.push(
      `<meta property="og:site_name" content="Persona Books" />`,
      `<meta property="og:type" content="${escapeHtml(og.type)}" />`,
      `<meta property="og:title" content="${escapeHtml(og.title)}" />`,
      `<meta property="og:description" content="${escapeHtml(og.description)}" />`,
      `<meta property="og:url" content="${escapeHtml(og.url)}" />`,
      `<meta name="twitter:card" content="${og.image ? 'summary_large_image' : 'summary'}" />`,
      `<meta name="twitter:title" content="${escapeHtml(og.title)}" />`,
      `<meta name="twitter:description" content="${escapeHtml(og.description)}" />`,
    );
    if (og.image) tags.push(`<meta property="og:image" content="${escapeHtml(og.image)}" />`, `<meta name="twitter:image" content="${escapeHtml(og.image)}" />`);
  }
  return tags.join('\n    ');
}

/** The index.html split around the head marker, with its default title and description removed when a page brings its own. */
export class IndexTemplate {
  readonly #before: string;
  readonly #after: string;
  readonly #defaultHead: string;

  constructor(readonly html: string) {
    const at = html.indexOf(HEAD_MARKER);
    const source = at === -1 ? html.replace('</head>', `${HEAD_MARKER}</head>`) : html;
    const i = source.indexOf(HEAD_MARKER);
    const before = source.slice(0, i);
    const title = /<title>[\s\S]*?<\/title>\s*/i;
    const description = /<meta\s+name="description"[^>]*>\s*/i;
    this.#defaultHead = [before.match(title)?.[0], before.match(description)?.[0]].filter(Boolean).join('').trim();
    this.#before = before.replace(title, '').replace(description, '');
    this.#after = source.slice(i + HEAD_MARKER.length);
  }

  render(head: PageHead | null): string {
    return `${this.#before}${head ? renderHead(head) : this.#defaultHead}${this.#after}`;
  }
}
