export * from './budget';
export { inflateCounted, OVERSHOOT_BYTES, type Inflated, type InflateOptions } from './bounded-inflate';
export { measureImage, jpegSize, type ImageKind, type ImageSize } from './image-size';
export { gaugePdf, type PdfMeasure } from './pdf-gauge';
export { readZip, type ZipEntry, type ZipReadOptions } from './zip-reader';
export {
  compiledModule,
  createUntrustedPool,
  DEFAULT_POOL_OPTIONS,
  PoolBusyError,
  PoolClosedError,
  servicePool,
  type RunOptions,
  type TaskTable,
  type UntrustedPool,
  type UntrustedPoolOptions,
} from './worker-pool';
export { ascii85Decode, asciiHexDecode, lzwDecode, runLengthDecode, type Decoded } from './stream-filters';
export { clearSpool, discardUploads, spoolUpload, type SpooledUpload } from './spool-upload';
export { lowerThreadPriority } from './thread-priority';
