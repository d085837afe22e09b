import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompressDirectory, precompressPlugin } from './precompress';

describe('precompressDirectory', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'precompress-'));
    mkdirSync(path.join(dir, 'assets'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const script = 'export function greet(name) { return `Hello, ${name}`; }\n'.repeat(200);

  it('writes .br and .gz copies that decode to the very bytes of each text asset', async () => {
    writeFileSync(path.join(dir, 'assets/app.js'), script);
    writeFileSync(path.join(dir, 'assets/app.css'), '.a { color: red; }\n'.repeat(200));
    const results = await precompressDirectory(dir);
    expect(results.map((r) => r.file)).toEqual(['assets/app.css', 'assets/app.js']);
    for (const name of ['assets/app.js', 'assets/app.css']) {
      const original = readFileSync(path.join(dir, name));
      expect(brotliDecompressSync(readFileSync(path.join(dir, `${name}.br`)))).toEqual(original);
      expect(gunzipSync(readFileSync(path.join(dir, `${name}.gz`)))).toEqual(original);
    }
    const js = results.find((r) => r.file === 'assets/app.js')!;
    expect(js.br).toBeLessThan(js.bytes / 10);
  });

  it('leaves small files, images, excluded pages and files that do not shrink alone', async () => {
    writeFileSync(path.join(dir, 'assets/tiny.js'), 'export const a = 1;\n');
    writeFileSync(path.join(dir, 'assets/cover.png'), Buffer.alloc(4096, 7));
    writeFileSync(path.join(dir, 'index.html'), `<p>${'x'.repeat(4096)}</p>`);
    // Random bytes do not compress: no copy larger than the original is written.
    writeFileSync(path.join(dir, 'assets/noise.json'), randomBytes(4096));
    const results = await precompressDirectory(dir, { exclude: (file) => file === 'index.html' });
    expect(existsSync(path.join(dir, 'assets/tiny.js.br'))).toBe(false);
    expect(existsSync(path.join(dir, 'assets/cover.png.br'))).toBe(false);
    expect(existsSync(path.join(dir, 'index.html.gz'))).toBe(false);
    expect(results.map((r) => r.file)).toEqual(['assets/noise.json']);
    expect(existsSync(path.join(dir, 'assets/noise.json.br'))).toBe(false);
    expect(existsSync(path.join(dir, 'assets/noise.json.gz'))).toBe(false);
  });

  it('runs as a Vite plugin on the resolved output directory after the build', async () => {
    writeFileSync(path.join(dir, 'assets/app.js'), script);
    const plugin = precompressPlugin();
    expect(plugin.apply).toBe('build');
    plugin.configResolved({ root: path.dirname(dir), build: { outDir: path.basename(dir) } });
    await plugin.closeBundle();
    expect(existsSync(path.join(dir, 'assets/app.js.br'))).toBe(true);
    expect(existsSync(path.join(dir, 'assets/app.js.gz'))).toBe(true);
  });
});
