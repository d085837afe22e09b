// Vite builds of the storefront: the browser's (served by the gateway at '/', `/api` proxied
// in dev, with a manifest the gateway reads to preload each page's chunks) and the server's
// (`--ssr`: one self-contained CommonJS file the gateway loads to render pages).
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
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

export const SSR_OUT_DIR = 'dist/server';

export default defineConfig(({ isSsrBuild }) => {
  if (isSsrBuild) {
    return {
      plugins: [react()],
      publicDir: false,
      // Everything in one file: the gateway loads it without this app's node_modules.
      ssr: { noExternal: true, target: 'node' as const },
      build: {
        outDir: SSR_OUT_DIR,
        emptyOutDir: true,
        target: 'node20',
        sourcemap: false,
        minify: false,
        rollupOptions: { input: 'src/entry-server.tsx', output: { format: 'cjs' as const, entryFileNames: 'entry-server.cjs', inlineDynamicImports: true } },
      },
    };
  }
  const config = appViteConfig({ base: '/', plugins: [react(), headMarkerLast()] });
  // One stylesheet for every page: a server-rendered page is styled by the one file the first page
  // loaded (cached for the rest), not by a chain of per-page files that each hold up the first paint.
  return { ...config, build: { ...config.build, manifest: true, cssCodeSplit: false } };
});
