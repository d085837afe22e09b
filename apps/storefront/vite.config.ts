// Vite build of the storefront: served by the gateway at '/', `/api` proxied in dev.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { appViteConfig } from '@persona/web-kit/vite-app';

const HEAD_MARKER = '<!--app-head-->';

/** Keeps the gateway's injection marker the last thing in <head>, after the tags Vite adds. */
function headMarkerLast(): Plugin {
  return {
    name: 'persona-head-marker-last',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => html.replace(/[ \t]*<!--app-head-->\r?\n?/, '').replace(/\s*<\/head>/, `\n    ${HEAD_MARKER}\n  </head>`),
    },
  };
}

export default defineConfig(appViteConfig({ base: '/', plugins: [react(), headMarkerLast()] }));
