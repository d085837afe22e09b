import { appViteConfig, DEV_API_TARGET } from './vite-app';

describe('appViteConfig', () => {
  it('keeps the app base and plugins, adds precompression last, builds to dist and proxies /api in dev and preview', () => {
    const own = { name: 'own' };
    const config = appViteConfig({ base: '/admin/', plugins: [own] });
    expect(config.base).toBe('/admin/');
    expect(config.plugins[0]).toBe(own);
    expect((config.plugins[1] as { name: string }).name).toBe('persona-precompress');
    expect(config.build).toEqual({ outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false });
    expect(config.server.proxy['/api'].target).toBe(DEV_API_TARGET);
    expect(config.preview.proxy).toBe(config.server.proxy);
  });
});
