// The storefront's built index.html, split once at start into the parts a page is put
// between: its head tags (the page's own, or the site's default title and description),
// its chunks and styles, the server-rendered HTML inside #root, and the API answers it was
// rendered with (read by the browser before it hydrates). The site's stylesheet and the
// page's own are written into the page itself: a server-rendered page then paints as soon as its HTML arrives,
// instead of after a stylesheet request (and, on a slow phone, after the scripts that
// arrive meanwhile and take the main thread).
import { createHash } from 'node:crypto';
import type { PageAssets } from './storefront-bundle';

const HEAD_MARKER = '<!--app-head-->';
const ROOT = '<div id="root"></div>';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** `'sha256-…'` of each script in `html` that runs inline (not JSON data, not a src script). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes = '', body = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(attributes) || body.length === 0) continue;
    const type = /\btype\s*=\s*"([^"]*)"/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== 'module' && type !== 'text/javascript') continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
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
  readonly #readAsset: (urlPath: string) => string | undefined;
  /**
   * The CSP sources (`'sha256-…'`) of the template's inline scripts (the storefront's
   * paint-first loader): a page's policy allows exactly these, and no other inline script.
   */
  readonly inlineScriptHashes: readonly string[];
  /** Stylesheets already read, by URL path (the build's files never change while the gateway runs). */
  readonly #styles = new Map<string, string | undefined>();

  /** `readAsset` answers a built file's text by its URL path (for the stylesheets to inline), or undefined. */
  constructor(
    readonly html: string,
    readAsset: (urlPath: string) => string | undefined = () => undefined,
  ) {
    this.#readAsset = readAsset;
    this.inlineScriptHashes = inlineScriptHashes(html);
    const inlined = html.replace(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g, (_link, href: string) => this.#style(href));
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

  /** A built stylesheet as a <style> element; undefined when it cannot be read (or cannot be inlined safely). */
  #inlineStyle(href: string): string | undefined {
    if (this.#styles.has(href)) return this.#styles.get(href);
    const css = this.#readAsset(href);
    const inline = css !== undefined && !/<\/style/i.test(css) ? `<style>${css}</style>` : undefined;
    this.#styles.set(href, inline);
    return inline;
  }

  /**
   * A stylesheet written into the page. The disabled <link> beside it is never fetched or
   * applied: it tells Vite's chunk loader (which looks for <link>s) that the page already has
   * this stylesheet, so loading a page's code does not fetch it again and apply it a second
   * time, after the page's own rules.
   */
  #style(href: string): string {
    const link = `<link rel="stylesheet" crossorigin href="${escapeHtml(href)}"`;
    const inline = this.#inlineStyle(href);
    return inline ? `${inline}${link} disabled>` : `${link}>`;
  }

  render(page: PageParts): string {
    const links = [
      ...(page.assets?.styles ?? []).map((href) => this.#style(href)),
      ...(page.assets?.scripts ?? []).map((href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}">`),
    ];
    const head = [page.head ?? this.#defaultHead, page.extraHead, ...links].filter(Boolean).join('\n    ');
    return `${this.#beforeHead}${head}${this.#beforeRoot}<div id="root">${page.html ?? ''}</div>${page.data ?? ''}${this.#afterRoot}`;
  }
}
