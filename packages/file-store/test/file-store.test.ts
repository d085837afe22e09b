// One contract for both drivers of the file store (issue 25): the local disk, and S3 through a real
// S3-compatible server (s3rver from npm, started here on a free port): a file written whole from
// bytes, a stream or a file on disk (moved in), read back streamed with its size, a large file in
// parts, none for a missing key, deleted, keys that cannot climb out, and for S3 a presigned
// address that downloads it under its name and expires within five minutes.
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { startS3Server, type TestS3Server } from '@persona/test-kit';
import { LocalFileStore, PART_BYTES, S3FileStore, type FileStore } from '../src';

const bytesOf = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

function contract(open: () => Promise<{ store: FileStore; scratch: string; close(): Promise<void> }>) {
  let store: FileStore;
  let scratch: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, scratch, close } = await open());
  });
  afterAll(async () => {
    await close();
  });

  it('writes a file from bytes, a stream or a file on disk, and reads it back streamed with its size', async () => {
    await store.put('personas/PRS-AAAA.pdf', Buffer.from('%PDF-1.7 one'), { contentType: 'application/pdf' });
    await store.put('personas/PRS-BBBB.epub', Readable.from([Buffer.from('PK epub '), Buffer.from('two')]));
    const onDisk = path.join(scratch, 'upload.bin');
    await writeFile(onDisk, 'three');
    await store.put('covers/c1.jpg', { path: onDisk });
    // Moved in: the spooled upload is gone from where it was.
    await expect(stat(onDisk)).rejects.toThrow(/ENOENT/);
    for (const [key, text] of [
      ['personas/PRS-AAAA.pdf', '%PDF-1.7 one'],
      ['personas/PRS-BBBB.epub', 'PK epub two'],
      ['covers/c1.jpg', 'three'],
    ] as const) {
      const file = await store.get(key);
      expect({ key, size: file?.size, text: file && (await bytesOf(file.stream)).toString() }).toEqual({ key, size: text.length, text });
      expect(await store.size(key)).toBe(text.length);
    }
  });

  it('writes a large file in parts, whole', async () => {
    const big = randomBytes(PART_BYTES * 2 + 12345);
    await store.put('private/big.pdf', Readable.from([big.subarray(0, 1_000_000), big.subarray(1_000_000)]));
    const file = await store.get('private/big.pdf');
    expect(file!.size).toBe(big.length);
    expect((await bytesOf(file!.stream)).equals(big)).toBe(true);
  }, 60_000);

  it('answers none for a missing key, deletes, and refuses keys that could climb out', async () => {
    expect(await store.get('personas/none.pdf')).toBeNull();
    expect(await store.size('personas/none.pdf')).toBeNull();
    await store.put('invoices/PB-26-27-000001.pdf', Buffer.from('invoice'));
    await store.delete('invoices/PB-26-27-000001.pdf');
    expect(await store.get('invoices/PB-26-27-000001.pdf')).toBeNull();
    await store.delete('invoices/PB-26-27-000001.pdf'); // again: nothing to do, no error
    for (const key of ['../etc/passwd', 'personas/../../x', '/abs.pdf', 'Personas/x.pdf', 'a//b.pdf', '']) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(/invalid file key/);
      await expect(store.get(key)).rejects.toThrow(/invalid file key/);
    }
  });
}

describe('the local file store', () => {
  contract(async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'file-store-'));
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'file-store-scratch-'));
    return {
      store: new LocalFileStore(root),
      scratch,
      async close() {
        await rm(root, { recursive: true, force: true });
        await rm(scratch, { recursive: true, force: true });
      },
    };
  });

  it('has no presigned addresses: downloads go through the shop', async () => {
    expect(await new LocalFileStore(os.tmpdir()).presignedUrl()).toBeNull();
  });

  it('leaves no file, not even its temporary one, when a stream fails before the file is open (1,000 tries: the race left 2 files in 1,000 before)', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'file-store-'));
    try {
      const store = new LocalFileStore(root);
      for (let i = 0; i < 1000; i += 1) {
        const body = new Readable({
          read() {
            this.destroy(new Error('the upload was cut'));
          },
        });
        await expect(store.put('personas/one.pdf', body)).rejects.toThrow('the upload was cut');
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await readdir(path.join(root, 'personas'))).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('the S3 file store, against a real S3-compatible server', () => {
  let server: TestS3Server;
  const settings = () => server.settings;

  beforeAll(async () => {
    server = await startS3Server();
  });
  afterAll(async () => {
    await server.close();
  });

  contract(async () => {
    const store = new S3FileStore(settings());
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'file-store-scratch-'));
    return {
      store,
      scratch,
      async close() {
        store.close();
        await rm(scratch, { recursive: true, force: true });
      },
    };
  });

  it('keeps what one replica wrote for every other, under its prefix', async () => {
    const [a, b] = [new S3FileStore({ ...settings(), prefix: 'shop1/' }), new S3FileStore({ ...settings(), prefix: 'shop1/' })];
    try {
      await a.put('personas/PRS-CCCC.pdf', Buffer.from('made by replica a'));
      const file = await b.get('personas/PRS-CCCC.pdf');
      expect((await bytesOf(file!.stream)).toString()).toBe('made by replica a');
      expect(await new S3FileStore(settings()).size('personas/PRS-CCCC.pdf')).toBeNull();
    } finally {
      a.close();
      b.close();
    }
  });

  it('hands out a presigned address that downloads the file under its name, valid five minutes at most', async () => {
    const store = new S3FileStore(settings());
    try {
      await store.put('personas/PRS-DDDD.pdf', Buffer.from('%PDF signed copy'), { contentType: 'application/pdf' });
      const url = await store.presignedUrl('personas/PRS-DDDD.pdf', { downloadName: 'Zoë’s Book - Persona PRS-DDDD.pdf', expiresInS: 3600 });
      expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('300');
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('%PDF signed copy');
      expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('Zoë’s Book - Persona PRS-DDDD.pdf')}`);
      // Signed (SigV4) with the store's key; refusing an altered signature is the store's part
      // (s3rver does not check signatures, MinIO and S3 do).
      expect(new URL(url).searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/);
      expect(new URL(url).searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      store.close();
    }
  });
});
