// `npm run start:distributed`: a process per service against the real
// PostgreSQL and RabbitMQ (DATABASE_URL, AMQP_URL). Stops them all on Ctrl+C,
// and stops everything if one of them dies.
import path from 'node:path';
import { startDistributed } from './start-distributed';

async function main() {
  const shop = await startDistributed({
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    amqpUrl: process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    dataDir: path.resolve(process.env.DATA_DIR ?? 'data/distributed'),
    port: Number(process.env.PORT ?? 8080),
    logLevel: process.env.LOG_LEVEL ?? 'info',
  });
  process.stdout.write(`\n  Persona Books (distributed: ${Object.keys(shop.processes).join(', ')}) is open at ${shop.url}\n  Press Ctrl+C to stop.\n\n`);
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await shop.close();
    process.exit(code);
  };
  for (const [name, child] of Object.entries(shop.processes)) {
    child.once('exit', (exitCode) => {
      if (!stopping) {
        process.stderr.write(`${name} stopped (code ${exitCode}); stopping the others\n`);
        void stop(1);
      }
    });
  }
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
}

main().catch((err: Error) => {
  process.stderr.write(`Persona Books could not start: ${err.message}\n`);
  process.exit(1);
});
