// Serves the admin app (its own Vite build) under /admin: hashed assets from its dist, and its
// index.html for every other GET under /admin so the app's router takes over (history fallback).
// Never indexed, never cached by the browser without asking.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { ServiceApp } from '@persona/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const ADMIN_APP_PREFIX = '/admin';

export interface AdminAppOptions {
  dir: string;
}

export function loadAdminIndex(dir: string): string {
  const file = path.join(dir, 'index.html');
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new Error(`the admin app is not built: ${file} is missing (run "npm run build", or set ADMIN_APP_DIR)`);
  }
}

export default async function adminAppRoutes(app: ServiceApp, options: AdminAppOptions) {
  const html = loadAdminIndex(options.dir);

  await app.register(fastifyStatic, {
    root: options.dir,
    prefix: `${ADMIN_APP_PREFIX}/`,
    decorateReply: false,
    wildcard: false,
    index: false,
    // The build wrote .br and .gz beside each text asset: sent as negotiated, never compressed per request.
    preCompressed: true,
    // index.html is answered by the fallback below (no-cache, noindex), never as a static file.
    // The .br/.gz copies are sent in place of their file, never as addresses of their own.
    globIgnore: ['index.html', '**/*.br', '**/*.gz'],
    setHeaders: (res, filePath) => {
      res.header('x-content-type-options', 'nosniff');
      res.header('x-robots-tag', 'noindex, nofollow');
      res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    },
  });

  const sendApp = async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0];
    // A missing hashed asset is a 404, not the app's HTML (a stale tab asking for an old chunk must fail loudly).
    if (pathname.startsWith(`${ADMIN_APP_PREFIX}/assets/`)) {
      return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `Route GET ${pathname} not found` });
    }
    return reply.status(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('x-robots-tag', 'noindex, nofollow').send(html);
  };
  app.get(ADMIN_APP_PREFIX, sendApp);
  app.get(`${ADMIN_APP_PREFIX}/*`, sendApp);
}
