// A gateway built over one raw node:http upstream (the catalogue's place), with a storefront
// folder holding only `indexHtml`: what the cache tests drive byte by byte. `close` stops both
// and removes the folder.
import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TEST_JWT_SECRET } from '@persona/test-kit';
import { buildGateway } from '../../src/app';
import type { StorefrontRenderer } from '../../src/modules/pages/storefront-bundle';

export async function gatewayOver(handler: http.RequestListener, { indexHtml, renderer }: { indexHtml: string; renderer: StorefrontRenderer | null }) {
  const upstream = http.createServer(handler);
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gateway-over-'));
  await writeFile(path.join(dir, 'index.html'), indexHtml);
  const gateway = await buildGateway({
    upstreams: { catalogue: `http://127.0.0.1:${(upstream.address() as { port: number }).port}` },
    jwtSecret: TEST_JWT_SECRET,
    storefrontDir: dir,
    adminAppDir: dir,
    publicUrl: 'https://shop.example',
    rateLimitMax: 0,
    renderer,
  });
  return {
    gateway,
    async close() {
      await gateway.close();
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
