// `npm run start:cluster`: two replicas of every service and two gateways behind nginx, on
// PostgreSQL (DATABASE_URL), RabbitMQ (AMQP_URL), Redis (REDIS_URL) and an S3 store (S3_ENDPOINT,
// else s3rver under DATA_DIR/s3). A replica that dies is reported and left down (nginx sends its
// requests to the other); the cluster stops when nginx dies, or on Ctrl+C.
import path from 'node:path';
import { CLUSTER_DEFAULTS, startCluster } from './start-cluster';

async function main() {
  const cluster = await startCluster({
    databaseUrl: process.env.DATABASE_URL ?? CLUSTER_DEFAULTS.databaseUrl,
    amqpUrl: process.env.AMQP_URL ?? CLUSTER_DEFAULTS.amqpUrl,
    redisUrl: process.env.REDIS_URL ?? CLUSTER_DEFAULTS.redisUrl,
    dataDir: path.resolve(process.env.DATA_DIR ?? 'data/cluster'),
    port: Number(process.env.PORT ?? 8080),
    logLevel: process.env.LOG_LEVEL ?? 'info',
  });
  const names = Object.entries(cluster.replicas).map(([service, replicas]) => `${service} ×${replicas.length}`);
  process.stdout.write(
    `\n  Persona Books (cluster: ${names.join(', ')}, behind nginx; files in ${cluster.s3.local ? 's3rver at ' : ''}${cluster.s3.endpoint}) is open at ${cluster.url}\n` +
      `  nginx's access log (which replica answered): ${path.join(cluster.nginxPrefix ?? '', 'logs/access.log')}\n  Press Ctrl+C to stop.\n\n`,
  );
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await cluster.close();
    process.exit(code);
  };
  for (const [name, child] of Object.entries(cluster.processes)) {
    child.once('exit', (exitCode, signal) => {
      if (stopping) return;
      if (name === 'nginx') {
        process.stderr.write(`nginx stopped (${signal ?? `code ${exitCode}`}); stopping the cluster\n`);
        void stop(1);
      } else {
        process.stderr.write(`${name} stopped (${signal ?? `code ${exitCode}`}); nginx sends its requests to the other replicas\n`);
      }
    });
  }
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
}

main().catch((err: Error) => {
  process.stderr.write(`The cluster could not start: ${err.message}\n`);
  process.exit(1);
});
