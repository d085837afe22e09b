// The storefront's server bundle (apps/storefront/dist/server/entry-server.cjs, built by its
// `vite build --ssr`) and its client manifest: the gateway renders pages with the same React
// components the browser hydrates (DESIGN §11), and preloads each page's own chunks.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ApiResult } from './api-reader';

/** What the storefront's server entry exports (apps/storefront/src/entry-server.tsx). */
export interface StorefrontRenderer {
  routeQueries(pathname: string, search: string): string[];
  render(url: string, data: Record<string, ApiResult>, origin: string): { html: string; head: string | null; status: number };
  pageModule(pathname: string): string;
  preloadPages(): Promise<void>;
  scriptJson(value: unknown): string;
  PAGE_DATA_ELEMENT_ID: string;
}

export const SERVER_ENTRY = path.join('server', 'entry-server.cjs');
const MANIFEST = path.join('.vite', 'manifest.json');

/** The renderer, its pages' code loaded; null when the storefront was built without its server bundle. */
export async function loadStorefrontRenderer(dir: string): Promise<StorefrontRenderer | null> {
  const file = path.join(dir, SERVER_ENTRY);
  if (!existsSync(file)) return null;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const renderer = require(file) as StorefrontRenderer;
  await renderer.preloadPages();
  return renderer;
}

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

export interface PageAssets {
  scripts: string[];
  styles: string[];
}

/**
 * Each page's chunks (its module and what it imports) and their styles, minus what index.html
 * already loads: with them in the head, the server-rendered page is styled before any script
 * runs, and the browser fetches the page's code beside the entry instead of after it.
 */
export class PageAssetIndex {
  readonly #manifest: Record<string, ManifestChunk>;
  readonly #entry = new Set<string>();
  readonly #cache = new Map<string, PageAssets>();

  constructor(manifest: Record<string, ManifestChunk>) {
    this.#manifest = manifest;
    for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) this.#collect(key, this.#entry);
  }

  static load(dir: string): PageAssetIndex {
    const file = path.join(dir, MANIFEST);
    return new PageAssetIndex(existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>) : {});
  }

  #collect(key: string, into: Set<string>): void {
    const chunk = this.#manifest[key];
    if (!chunk || into.has(`js:${chunk.file}`)) return;
    into.add(`js:${chunk.file}`);
    for (const css of chunk.css ?? []) into.add(`css:${css}`);
    for (const imported of chunk.imports ?? []) this.#collect(imported, into);
  }

  assetsFor(moduleId: string): PageAssets {
    const known = this.#cache.get(moduleId);
    if (known) return known;
    const all = new Set<string>();
    this.#collect(moduleId, all);
    const assets: PageAssets = { scripts: [], styles: [] };
    for (const item of all) {
      if (this.#entry.has(item)) continue;
      const [kind, file] = [item.slice(0, item.indexOf(':')), item.slice(item.indexOf(':') + 1)];
      (kind === 'js' ? assets.scripts : assets.styles).push(`/${file}`);
    }
    this.#cache.set(moduleId, assets);
    return assets;
  }
}
