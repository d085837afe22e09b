// Vite builds of the storefront: the browser's (served by the gateway at '/', `/api` proxied
// in dev, with a manifest the gateway reads to preload each page's chunks) and the server's
// (`--ssr`: one self-contained CommonJS file the gateway loads to render pages).
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
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

/** The inline loader (src/boot/paint-first.ts) as one small script, bundled once per build. */
async function paintFirstLoader(): Promise<string> {
  const bundle = await rolldown({ input: fileURLToPath(new URL('./src/boot/paint-first.ts', import.meta.url)), platform: 'browser', logLevel: 'silent' });
  try {
    const { output } = await bundle.generate({ format: 'iife', minify: true });
    const code = output[0].code.trim();
    if (/<\/script/i.test(code)) throw new Error('the paint-first loader cannot be inlined: it contains </script');
    return code;
  } finally {
    await bundle.close();
  }
}

/**
 * Paint first, then the app: the entry's <script type="module"> becomes a modulepreload link
 * (fetched at once, beside its chunks) and an inline loader at the end of <body> that adds the
 * entry after the page's first contentful paint (src/boot/paint-first.ts). A module script
 * would run before the first paint whenever it arrives in time, and the page would wait for
 * the app's evaluation. The gateway allows the inline loader by its hash in the page's CSP.
 */
function paintFirstEntry(): Plugin {
  return {
    name: 'persona-paint-first-entry',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: async (html) => {
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html);
        if (!entry) throw new Error('index.html has no entry <script type="module"> for the paint-first loader to replace');
        const src = entry[1]!;
        const loader = await paintFirstLoader();
        return html
          .replace(entry[0], `<link rel="modulepreload" crossorigin href="${src}">\n    `)
          .replace('</body>', `  <script data-entry="${src}">${loader}</script>\n  </body>`);
      },
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
      // A sample PDF is drawn in the browser only: the server's bundle gets a stand-in, never pdf.js.
      resolve: { alias: [{ find: /^(.*)\/lib\/pdf-sample$/, replacement: '$1/lib/pdf-sample.server' }] },
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
  const config = appViteConfig({ base: '/', plugins: [react(), paintFirstEntry(), headMarkerLast()] });
  // A stylesheet per page: the gateway writes the site's and the page's own into a server-rendered
  // page (about half of all the CSS on any page), so its HTML stays small and paints at once.
  return { ...config, build: { ...config.build, manifest: true } };
});
