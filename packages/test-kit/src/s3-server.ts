// A real S3-compatible server for the tests of the file store and what uses it (issue 25): s3rver
// from npm (no MinIO binary installs here), on a free loopback port, over a folder of its own,
// with one bucket; `close` stops it and removes the folder.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './servers';

interface S3rverInstance {
  run(): Promise<unknown>;
  close(): Promise<void>;
}

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** What an S3 store takes to use this server (its fixed credentials, the bucket in the path). */
  settings: { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string; region: string; forcePathStyle: true };
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'persona-test'): Promise<TestS3Server> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const S3rver = require('s3rver') as new (options: object) => S3rverInstance;
  const directory = await mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const port = await freePort();
  const server = new S3rver({ port, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket }] });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    settings: { endpoint, bucket, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', region: 'us-east-1', forcePathStyle: true },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
