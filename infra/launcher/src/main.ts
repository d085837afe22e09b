// `npm start`: the whole shop in one process.
import path from 'node:path';
import { ARENA_MAX } from './allocator';
import { startShop } from './start-shop';

async function main() {
  const port = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT=${JSON.stringify(process.env.PORT)} is not a valid port`);
  const dataDir = path.resolve(process.env.DATA_DIR ?? 'data');
  const started = Date.now();
  const shop = await startShop({ dataDir, port, host: process.env.HOST, logLevel: process.env.LOG_LEVEL, publicUrl: process.env.PUBLIC_URL });
  process.stdout.write(
    [
      '',
      `  Persona Books is open at ${shop.url}  (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
      `  data folder: ${dataDir}  (embedded PostgreSQL, uploaded files, secrets)`,
      ...(shop.generatedAdmin
        ? [
            `  administrator: ${shop.generatedAdmin.email} / ${shop.generatedAdmin.password}  (shown once; set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own)`,
          ]
        : []),
      // Started without `npm start` (node infra/launcher/dist/main.js): glibc keeps more after large uploads (allocator.ts).
      ...(process.platform === 'linux' && !process.env.MALLOC_ARENA_MAX
        ? [`  memory: MALLOC_ARENA_MAX is unset; \`npm start\` sets it to ${ARENA_MAX} (less memory kept after large uploads)`]
        : []),
      '  Press Ctrl+C to stop.',
      '',
    ].join('\n') + '\n',
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await shop.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((err: Error) => {
  process.stderr.write(`Persona Books could not start: ${err.message}\n`);
  process.exit(1);
});
