// Vite build of the admin app: its own bundle, served by the gateway under /admin (history fallback there).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressPlugin } from '@persona/web-kit/precompress';

export default defineConfig({
  base: '/admin/',
  plugins: [react(), precompressPlugin({ exclude: (file) => file === 'index.html' })],
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
});
