// A page's <head> tags (title, description, Open Graph, Twitter, canonical, robots, JSON-LD):
// written as HTML by the server's render (headTags), then kept up to date in place by the
// browser as the visitor moves (applyDocumentHead), creating a tag only when it is missing
// and never duplicating one.

import { hasImageCopies, imageSrcSet } from '@persona/contracts';

export interface HeadInfo {
  title: string;
  description: string;
  /** Absolute or root-relative image URL; absent removes the image tags. */
  image?: string | null;
  type?: 'website' | 'book' | 'article';
  /** e.g. "noindex"; absent removes any robots tag. */
  robots?: string;
  /** Path (and query) for canonical/og:url; defaults to the current location's path. */
  path?: string;
  /** Structured data (schema.org) for search engines, e.g. a Book with its Offer. */
  jsonLd?: Record<string, unknown>;
  /** The page's main image, fetched with high priority beside the scripts (server only), with the `sizes` it is shown at. */
  preloadImage?: { url: string; sizes: string } | null;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON safe inside a <script> element: nothing in it can close the element or open a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function absolute(pathOrUrl: string, origin: string): string {
  try {
    return new URL(pathOrUrl, origin).toString();
  } catch {
    return pathOrUrl;
  }
}

/** Every tag the page's head carries, as they are kept in the document. */
function headEntries(info: HeadInfo, url: string, origin: string) {
  const image = info.image ? absolute(info.image, origin) : null;
  const meta: Array<['name' | 'property', string, string]> = [
    ['name', 'description', info.description],
    ['property', 'og:title', info.title],
    ['property', 'og:description', info.description],
    ['property', 'og:type', info.type ?? 'website'],
    ['property', 'og:url', url],
    ['property', 'og:site_name', 'Persona Books'],
    ['name', 'twitter:card', image ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', info.title],
    ['name', 'twitter:description', info.description],
  ];
  if (image) meta.push(['property', 'og:image', image], ['name', 'twitter:image', image]);
  if (info.robots) meta.push(['name', 'robots', info.robots]);
  return { meta, image };
}

/** A preload that fetches the copy the <img> itself will pick (its srcset and sizes), never the upload beside it. */
function imagePreload({ url, sizes }: { url: string; sizes: string }): string {
  const choice = hasImageCopies(url) ? ` imagesrcset="${escapeHtml(imageSrcSet(url))}" imagesizes="${escapeHtml(sizes)}"` : '';
  return `<link rel="preload" as="image" href="${escapeHtml(url)}"${choice} fetchpriority="high" />`;
}

/** The head as HTML, for the server's render of a page at `origin`. */
export function headTags(info: HeadInfo, origin: string, currentPath: string): string {
  const url = absolute(info.path ?? currentPath, origin);
  const { meta } = headEntries(info, url, origin);
  const tags = [`<title>${escapeHtml(info.title)}</title>`];
  for (const [attr, key, content] of meta) tags.push(`<meta ${attr}="${key}" content="${escapeHtml(content)}" />`);
  tags.push(`<link rel="canonical" href="${escapeHtml(url)}" />`);
  if (info.preloadImage) tags.push(imagePreload(info.preloadImage));
  if (info.jsonLd) tags.push(`<script type="application/ld+json">${scriptJson(info.jsonLd)}</script>`);
  return tags.join('\n    ');
}

type Attr = 'name' | 'property';

function metaSelector(attr: Attr, key: string): string {
  return `meta[${attr}="${key}"]`;
}

function upsertMeta(attr: Attr, key: string, content: string): void {
  const all = document.head.querySelectorAll<HTMLMetaElement>(metaSelector(attr, key));
  let tag = all[0];
  // Tolerate a page that somehow arrived with duplicates: keep the first only.
  for (let i = 1; i < all.length; i += 1) all[i]!.remove();
  if (!tag) {
    tag = document.createElement('meta');
    tag.setAttribute(attr, key);
    document.head.appendChild(tag);
  }
  if (tag.getAttribute('content') !== content) tag.setAttribute('content', content);
}

function removeMeta(attr: Attr, key: string): void {
  document.head.querySelectorAll(metaSelector(attr, key)).forEach((el) => el.remove());
}

function upsertCanonical(href: string): void {
  const all = document.head.querySelectorAll<HTMLLinkElement>('link[rel="canonical"]');
  let link = all[0];
  for (let i = 1; i < all.length; i += 1) all[i]!.remove();
  if (!link) {
    link = document.createElement('link');
    link.rel = 'canonical';
    document.head.appendChild(link);
  }
  if (link.getAttribute('href') !== href) link.setAttribute('href', href);
}

function setJsonLd(value: Record<string, unknown> | undefined): void {
  const existing = document.head.querySelectorAll<HTMLScriptElement>('script[type="application/ld+json"]');
  if (!value) {
    existing.forEach((el) => el.remove());
    return;
  }
  const text = scriptJson(value);
  let script = existing[0];
  for (let i = 1; i < existing.length; i += 1) existing[i]!.remove();
  if (!script) {
    script = document.createElement('script');
    script.type = 'application/ld+json';
    document.head.appendChild(script);
  }
  if (script.textContent !== text) script.textContent = text;
}

export function absoluteUrl(pathOrUrl: string): string {
  return absolute(pathOrUrl, window.location.origin);
}

export function applyDocumentHead(info: HeadInfo): void {
  const url = absoluteUrl(info.path ?? window.location.pathname);
  if (document.title !== info.title) document.title = info.title;
  const { meta, image } = headEntries(info, url, window.location.origin);
  for (const [attr, key, content] of meta) upsertMeta(attr, key, content);
  if (!image) {
    removeMeta('property', 'og:image');
    removeMeta('name', 'twitter:image');
  }
  upsertCanonical(url);
  if (!info.robots) removeMeta('name', 'robots');
  setJsonLd(info.jsonLd);
}
