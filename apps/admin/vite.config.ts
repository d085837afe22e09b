// Vite build of the admin app: its own bundle, served by the gateway under /admin (history fallback there).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { appViteConfig } from '@persona/web-kit/vite-app';

export default defineConfig(appViteConfig({ base: '/admin/', plugins: [react()] }));
