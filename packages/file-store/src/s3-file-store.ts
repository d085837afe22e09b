// The file store in S3 (or any S3-compatible store: MinIO, Ceph, R2): what one replica writes,
// every replica reads. Uploads stream, in parts of PART_BYTES for a large file (lib-storage's
// multipart upload, two parts in flight); reads stream; a download may be handed a presigned
// address valid at most PRESIGN_MAX_SECONDS.
import { rm } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertKey, PRESIGN_MAX_SECONDS, type FileBody, type FileStore, type PresignOptions, type PutOptions, type StoredFile } from './file-store';

/** A part of a multipart upload (S3's least is 5 MiB). */
export const PART_BYTES = 8 * 1024 * 1024;

export interface S3Settings {
  bucket: string;
  /** The store's address (MinIO's, a local test server's); AWS's own when unset. */
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** bucket in the path (`/bucket/key`), as MinIO and most S3-compatible stores want; AWS takes it in the host. */
  forcePathStyle?: boolean;
  /** Keys begin so ("persona/"), when the bucket is shared. */
  prefix?: string;
}

const missing = (err: unknown) =>
  err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404);

export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region ?? 'us-east-1',
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle ?? Boolean(settings.endpoint),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
    });
  }

  private objectKey(key: string): string {
    assertKey(key);
    return `${this.settings.prefix ?? ''}${key}`;
  }

  async put(key: string, body: FileBody, options: PutOptions = {}): Promise<void> {
    const Key = this.objectKey(key);
    const source = body instanceof Uint8Array || body instanceof Readable ? body : createReadStream(body.path);
    // One request for a small file, parts for a large one; either way the object appears whole or not at all.
    await new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key, Body: source, ...(options.contentType ? { ContentType: options.contentType } : {}) },
      partSize: PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    }).done();
    if (!(body instanceof Uint8Array) && !(body instanceof Readable)) await rm(body.path, { force: true });
  }

  async get(key: string): Promise<StoredFile | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return { stream: answer.Body as Readable, size: answer.ContentLength ?? 0 };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return answer.ContentLength ?? 0;
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
  }

  async presignedUrl(key: string, options: PresignOptions = {}): Promise<string> {
    const name = options.downloadName?.replace(/[\r\n"\\]/g, ' ');
    const command = new GetObjectCommand({
      Bucket: this.settings.bucket,
      Key: this.objectKey(key),
      ...(name
        ? {
            ResponseContentDisposition: `attachment; filename="${name.normalize('NFKD').replace(/[^\x20-\x7e]/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
          }
        : {}),
      ...(options.contentType ? { ResponseContentType: options.contentType } : {}),
    });
    return getSignedUrl(this.client, command, { expiresIn: Math.min(options.expiresInS ?? PRESIGN_MAX_SECONDS, PRESIGN_MAX_SECONDS) });
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }
}
