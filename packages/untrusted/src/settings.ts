// The settings of a service's untrusted-file threads, spread into the config of each service
// that reads files clients send (its config.ts stays the only reader of its environment).
// A subpath of its own (`@persona/untrusted/settings`): the threads never load TypeBox.
import { Type, type Static } from '@sinclair/typebox';
import { DEFAULT_POOL_OPTIONS, type UntrustedPoolOptions } from './worker-pool';

export const FileCheckSettings = {
  /** Threads reading uploaded files at once. */
  FILE_CHECK_THREADS: Type.Integer({ minimum: 1, maximum: 16, default: DEFAULT_POOL_OPTIONS.threads }),
  /** Each thread's V8 heap, MB: a file whose reading needs more is refused (422). */
  FILE_CHECK_HEAP_MB: Type.Integer({ minimum: 32, maximum: 4096, default: DEFAULT_POOL_OPTIONS.heapMb }),
  /** How long reading one file may take once a thread has it, ms: longer is refused (422). */
  FILE_CHECK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: DEFAULT_POOL_OPTIONS.timeoutMs }),
  /** Files that may wait for a thread; more are answered 503 with Retry-After. */
  FILE_CHECK_QUEUE: Type.Integer({ minimum: 0, maximum: 10_000, default: DEFAULT_POOL_OPTIONS.maxQueue }),
};

const _schema = Type.Object(FileCheckSettings);
export type FileCheckSettingsValues = Static<typeof _schema>;

/** The pool's options from the settings (the task module is the service's own). */
export function fileCheckOptions(settings: FileCheckSettingsValues): Omit<UntrustedPoolOptions, 'module'> {
  return {
    threads: settings.FILE_CHECK_THREADS,
    heapMb: settings.FILE_CHECK_HEAP_MB,
    timeoutMs: settings.FILE_CHECK_TIMEOUT_MS,
    maxQueue: settings.FILE_CHECK_QUEUE,
  };
}
