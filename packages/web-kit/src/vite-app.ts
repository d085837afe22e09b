/// <reference types="node" />
// The Vite settings both apps share (structurally typed, so this package needs no Vite):
// their own bundle in dist/, precompressed text assets, `/api` proxied to the shop in dev
// and preview. Each app adds its base path and its own plugins.
import { precompressPlugin } from './precompress.js';

export const DEV_API_TARGET = 'http://localhost:8080';

export function appViteConfig<P>({ base, plugins }: { base: string; plugins: P[] }) {
  const proxy = { '/api': { target: DEV_API_TARGET, changeOrigin: true } };
  return {
    base,
    // index.html is rendered by the gateway (per page, or as the admin's fallback), never served as a file.
    plugins: [...plugins, precompressPlugin({ exclude: (file) => file === 'index.html' })],
    build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false },
    server: { proxy },
    preview: { proxy },
  };
}
