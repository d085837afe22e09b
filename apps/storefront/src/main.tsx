// The storefront's entry: the site's styles and the app, hydrating the server's HTML (or
// rendering an empty #root) with the page's data. index.html adds this script only after a
// server-rendered page has painted (src/boot/paint-first.ts, inlined by vite.config.ts) and
// preloads it and its chunks meanwhile, so the app starts the moment it is added.
import '@persona/web-kit/styles/tokens.css';
import '@persona/web-kit/styles/base.css';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { pageFor } from './app/router';
import { readPageData } from './app/ssr/page-data';
import { ApiDataCache } from './lib/api-data';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
const cache = new ApiDataCache(readPageData());

if (container.firstElementChild) {
  // The server rendered this page: load its code first, so the first render matches the HTML
  // (the gateway's modulepreload links fetched it beside this entry).
  // A chunk that failed to load still hydrates: the router shows the page's own error state.
  void pageFor(window.location.pathname)
    .preload()
    .catch(() => undefined)
    .then(() =>
      // Hydration as a transition is time-sliced: React yields to the browser every few
      // milliseconds, so the page stays responsive (and paints) while it becomes interactive,
      // instead of one long task the size of the page.
      startTransition(() => {
        hydrateRoot(container, <App cache={cache} />, {
          // A page whose HTML differs from the browser's first render is a bug: say so plainly.
          onRecoverableError: (error, info) => console.error('Hydration error:', error, info.componentStack ?? ''),
        });
      }),
    );
} else {
  createRoot(container).render(<App cache={cache} />);
}
