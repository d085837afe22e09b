export { assertKey, FILE_KEY, PRESIGN_MAX_SECONDS, type FileBody, type FileStore, type PresignOptions, type PutOptions, type StoredFile } from './file-store';
export { LocalFileStore } from './local-file-store';
export { PART_BYTES, S3FileStore, type S3Settings } from './s3-file-store';
