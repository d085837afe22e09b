// Written into index.html as an inline script (vite.config.ts bundles it) in place of the
// entry's <script type="module">: on a server-rendered page it adds the entry only after the
// first contentful paint, so the page paints from its HTML before any of the app's code runs
// (the entry is preloaded meanwhile, so the wait costs no download). A page the browser
// renders itself (an empty #root) loads the entry at once. The entry's address is the
// script's data-entry attribute: the script's text, and so its CSP hash, stay the same from
// build to build.
import { afterFirstPaint } from '../app/after-first-paint';

const entry = (document.currentScript as HTMLScriptElement | null)?.dataset.entry;
if (entry) {
  const load = () => {
    const script = document.createElement('script');
    script.type = 'module';
    // As the preload link asked for it, so the browser uses the preloaded copy.
    script.crossOrigin = '';
    script.src = entry;
    document.head.appendChild(script);
  };
  if (document.getElementById('root')?.firstElementChild) afterFirstPaint(load);
  else load();
}
