import { createRoot, hydrateRoot } from 'react-dom/client';
import '@persona/web-kit/styles/tokens.css';
import '@persona/web-kit/styles/base.css';
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
      hydrateRoot(container, <App cache={cache} />, {
        // A page whose HTML differs from the browser's first render is a bug: say so plainly.
        onRecoverableError: (error, info) => console.error('Hydration error:', error, info.componentStack ?? ''),
      }),
    );
} else {
  createRoot(container).render(<App cache={cache} />);
}
