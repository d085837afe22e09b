// Updates the <head> tags the gateway already rendered (title, description, Open Graph,
// Twitter, canonical, robots) in place, creating a tag only when it is missing; never duplicates.

export interface HeadInfo {
  title: string;
  description: string;
  /** Absolute or root-relative image URL; absent removes the image tags. */
  image?: string | null;
  type?: 'website' | 'book' | 'article';
  /** e.g. "noindex"; absent removes any robots tag. */
  robots?: string;
  /** Path for canonical/og:url; defaults to the current location's path. */
  path?: string;
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

export function absoluteUrl(pathOrUrl: string): string {
  try {
    return new URL(pathOrUrl, window.location.origin).toString();
  } catch {
    return pathOrUrl;
  }
}

export function applyDocumentHead(info: HeadInfo): void {
  const url = absoluteUrl(info.path ?? window.location.pathname);
  if (document.title !== info.title) document.title = info.title;
  upsertMeta('name', 'description', info.description);
  upsertMeta('property', 'og:title', info.title);
  upsertMeta('property', 'og:description', info.description);
  upsertMeta('property', 'og:type', info.type ?? 'website');
  upsertMeta('property', 'og:url', url);
  upsertMeta('property', 'og:site_name', 'Persona Books');
  upsertMeta('name', 'twitter:title', info.title);
  upsertMeta('name', 'twitter:description', info.description);
  if (info.image) {
    const image = absoluteUrl(info.image);
    upsertMeta('property', 'og:image', image);
    upsertMeta('name', 'twitter:image', image);
    upsertMeta('name', 'twitter:card', 'summary_large_image');
  } else {
    removeMeta('property', 'og:image');
    removeMeta('name', 'twitter:image');
    upsertMeta('name', 'twitter:card', 'summary');
  }
  upsertCanonical(url);
  if (info.robots) upsertMeta('name', 'robots', info.robots);
  else removeMeta('name', 'robots');
}
