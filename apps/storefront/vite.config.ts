// Vite build of the storefront: served by the gateway at '/', `/api` proxied in dev.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { precompressPlugin } from '@persona/web-kit/precompress';

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

export default defineConfig({
  base: '/',
  // index.html is rendered per page by the gateway, never served as a file.
  plugins: [react(), headMarkerLast(), precompressPlugin({ exclude: (file) => file === 'index.html' })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    proxy: {
      '/api': { target: 'http://localhost:8080', changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://localhost:8080', changeOrigin: true },
    },
  },
});
