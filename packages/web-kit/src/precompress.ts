/// <reference types="node" />
// Build-time compression for both apps: next to every text asset of a Vite build, a
// Brotli (`.br`) and a gzip (`.gz`) copy at the highest levels, made once, so the gateway
// serves compressed bytes without compressing anything per request.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Files worth compressing; images and fonts in these apps are already compressed formats. */
export const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|xml|webmanifest|map)$/i;
/** Below this, the headers and the decoding cost more than the bytes saved. */
export const MIN_BYTES = 1024;

export interface PrecompressOptions {
  /** Paths (relative to the directory, with `/`) never compressed: pages the server renders itself. */
  exclude?: (relativePath: string) => boolean;
  minBytes?: number;
}

export interface PrecompressResult {
  file: string;
  bytes: number;
  br: number;
  gz: number;
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/** Writes `<file>.br` and `<file>.gz` for every compressible file of `dir` that shrinks; returns what it wrote. */
export async function precompressDirectory(dir: string, options: PrecompressOptions = {}): Promise<PrecompressResult[]> {
  const minBytes = options.minBytes ?? MIN_BYTES;
  const results: PrecompressResult[] = [];
  for await (const file of walk(dir)) {
    const relative = path.relative(dir, file).split(path.sep).join('/');
    if (!COMPRESSIBLE.test(file) || options.exclude?.(relative)) continue;
    if ((await stat(file)).size < minBytes) continue;
    const bytes = await readFile(file);
    const [br, gz] = await Promise.all([
      brotli(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
      gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    // A copy that saves nothing is not written: the server then sends the file itself.
    if (br.length < bytes.length) await writeFile(`${file}.br`, br);
    if (gz.length < bytes.length) await writeFile(`${file}.gz`, gz);
    results.push({ file: relative, bytes: bytes.length, br: br.length, gz: gz.length });
  }
  return results.sort((a, b) => a.file.localeCompare(b.file));
}

/** The Vite plugin (structurally typed, so this package needs no Vite): compresses the finished build. */
export function precompressPlugin(options: PrecompressOptions = {}) {
  let outDir = '';
  return {
    name: 'persona-precompress',
    apply: 'build' as const,
    configResolved(config: { root: string; build: { outDir: string } }) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDirectory(outDir, options);
    },
  };
}
