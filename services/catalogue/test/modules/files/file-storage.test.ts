// The catalogue's uploads in a file store (issue 25). On S3 (a real S3-compatible server): a cover
// one replica stored is read by another, which makes its sized copy into the store for every
// replica, and deleting it removes the copies too. On the local disk the folder keeps the layout
// a running shop already has (covers/<uuid>.png, variants/covers/<uuid>-<width>.webp).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { S3FileStore } from '@persona/file-store';
import { startS3Server, type TestS3Server } from '@persona/test-kit';
import { LocalFileStorage, StoreFileStorage } from '../../../src/modules/files/file-storage';

const cover = () =>
  sharp({ create: { width: 400, height: 600, channels: 3, background: '#345678' } })
    .png()
    .toBuffer();
const bytesOf = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe('uploads on S3, shared by replicas', () => {
  let s3: TestS3Server;
  const stores: S3FileStore[] = [];
  const replica = () => {
    const store = new S3FileStore({ ...s3.settings, prefix: 'shop/catalogue/' });
    stores.push(store);
    return { store, storage: new StoreFileStorage(store) };
  };
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    for (const store of stores) store.close();
    await s3.close();
  });

  it('reads on one replica what another stored, keeps its sized copy for all, and deletes both', async () => {
    const [a, b] = [replica(), replica()];
    const png = await cover();
    const key = await a.storage.put('covers', 'png', png);
    expect(key).toMatch(/^covers\/[0-9a-f-]{36}\.png$/);
    const file = await b.storage.get(key);
    expect((await bytesOf(file!.stream)).equals(png)).toBe(true);

    const copy = await b.storage.variant(key, 160);
    expect((await sharp(copy!).metadata()).width).toBe(160);
    const copyKey = `variants/${key.replace('.png', '-160.webp')}`;
    expect(await a.store.size(copyKey)).toBe(copy!.length);
    // A's copy is the one B made, read from the store.
    expect((await a.storage.variant(key, 160))!.equals(copy!)).toBe(true);

    await a.storage.delete(key);
    expect(await b.storage.get(key)).toBeNull();
    expect(await b.store.size(copyKey)).toBeNull();
    expect(await b.storage.variant(key, 160)).toBeNull();
  });
});

describe('uploads on the local disk', () => {
  it('keep the folder layout a running shop has', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'catalogue-files-'));
    try {
      const storage = new LocalFileStorage(root);
      const key = await storage.put('covers', 'png', await cover());
      await storage.variant(key, 240);
      const name = key.slice('covers/'.length, -'.png'.length);
      expect(await readdir(path.join(root, 'covers'))).toEqual([`${name}.png`]);
      expect(await readdir(path.join(root, 'variants', 'covers'))).toEqual([`${name}-240.webp`]);
      await storage.delete(key);
      expect(await readdir(path.join(root, 'covers'))).toEqual([]);
      expect(await readdir(path.join(root, 'variants', 'covers'))).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
