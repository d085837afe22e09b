// The storefront's built index.html, split once at start into the parts a page is put
// between: its head tags (the page's own, or the site's default title and description),
// its chunks and styles, the server-rendered HTML inside #root, and the API answers it was
// rendered with (read by the browser before it hydrates). The site's stylesheet is written
// into the page itself: a server-rendered page then paints as soon as its HTML arrives,
// instead of after a stylesheet request (and, on a slow phone, after the scripts that
// arrive meanwhile and take the main thread).
import type { PageAssets } from './storefront-bundle';

const HEAD_MARKER = '<!--app-head-->';
const ROOT = '<div id="root"></div>';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface PageParts {
  /** The page's head tags; null keeps the site's default title and description. */
  head: string | null;
  assets?: PageAssets;
  /** The page rendered on the server; absent leaves #root empty for the browser to render. */
  html?: string;
  /** `<script type="application/json" …>` with the answers the page was rendered with. */
  data?: string;
  /** Tags added to the head whatever else it holds (e.g. robots noindex on a missing page rendered without a server bundle). */
  extraHead?: string;
}

export class IndexTemplate {
  readonly #beforeHead: string;
  readonly #defaultHead: string;
  readonly #beforeRoot: string;
  readonly #afterRoot: string;

  /** `readAsset` answers a built file's text by its URL path (for the stylesheets to inline), or undefined. */
  constructor(
    readonly html: string,
    readAsset: (urlPath: string) => string | undefined = () => undefined,
  ) {
    const inlined = html.replace(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g, (link, href: string) => {
      const css = readAsset(href);
      return css !== undefined && !/<\/style/i.test(css) ? `<style>${css}</style>` : link;
    });
    const source = inlined.includes(HEAD_MARKER) ? inlined : inlined.replace('</head>', `${HEAD_MARKER}</head>`);
    const at = source.indexOf(HEAD_MARKER);
    const before = source.slice(0, at);
    const title = /<title>[\s\S]*?<\/title>\s*/i;
    const description = /<meta\s+name="description"[^>]*>\s*/i;
    this.#defaultHead = [before.match(title)?.[0], before.match(description)?.[0]].filter(Boolean).join('').trim();
    this.#beforeHead = before.replace(title, '').replace(description, '');
    const rest = source.slice(at + HEAD_MARKER.length);
    const root = rest.indexOf(ROOT);
    if (root === -1) throw new Error(`the storefront's index.html has no ${ROOT}`);
    this.#beforeRoot = rest.slice(0, root);
    this.#afterRoot = rest.slice(root + ROOT.length);
  }

  render(page: PageParts): string {
    const links = [
      ...(page.assets?.styles ?? []).map((href) => `<link rel="stylesheet" crossorigin href="${escapeHtml(href)}">`),
      ...(page.assets?.scripts ?? []).map((href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}">`),
    ];
    const head = [page.head ?? this.#defaultHead, page.extraHead, ...links].filter(Boolean).join('\n    ');
    return `${this.#beforeHead}${head}${this.#beforeRoot}<div id="root">${page.html ?? ''}</div>${page.data ?? ''}${this.#afterRoot}`;
  }
}
