// The storefront's server entry, loaded by the gateway (which owns rendering, DESIGN §11):
// which API answers a page needs, and the page rendered with them, from the same
// components the browser hydrates.
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppProvider } from './app/provider';
import { AppRouter, LAYOUT_PAGES, pageFor, READER_PAGE } from './app/router';
import { RenderContextValue, type RenderContext } from './lib/render-context';
import { ApiDataCache, type PageData } from './lib/api-data';
import { headTags } from './lib/document-head';

export { routeQueries } from './app/route-data';
export { PAGE_DATA_ELEMENT_ID } from './app/ssr/page-data';
export { scriptJson } from './lib/document-head';

export interface RenderedPage {
  html: string;
  /** The page's head tags, or null for the site's default title and description. */
  head: string | null;
  status: number;
}

/** Loads every page's code once, so renders never suspend. */
export async function preloadPages(): Promise<void> {
  await Promise.all([...LAYOUT_PAGES.map(({ page }) => page.preload()), READER_PAGE.preload()]);
}

/** The source module of the page at `pathname` (the client manifest's key for its chunk). */
export function pageModule(pathname: string): string {
  return pageFor(pathname).moduleId;
}

/** Renders `url` (path and query) with the API answers in `data`, for visitors at `origin`. */
export function render(url: string, data: PageData, origin: string): RenderedPage {
  const context: RenderContext = { head: null, status: 200, origin };
  const html = renderToString(
    <RenderContextValue.Provider value={context}>
      <AppProvider cache={new ApiDataCache(data)}>
        <StaticRouter location={url}>
          <AppRouter />
        </StaticRouter>
      </AppProvider>
    </RenderContextValue.Provider>,
  );
  const pathname = new URL(url, origin).pathname;
  return { html, status: context.status, head: context.head ? headTags(context.head, origin, pathname) : null };
}
