// Defaults and validation shared by both transports, so a spec means the same everywhere.
import { DEFAULT_MAX_ATTEMPTS, DEFAULT_PREFETCH, DEFAULT_RETRY_DELAYS_MS, type EventBinding, type EventHandler, type SubscriptionSpec } from './types';

/** A subscription as a transport runs it: any binding, any envelope (the spec's types are the caller's view). */
export type ResolvedSpec = Required<Omit<SubscriptionSpec, 'bindings' | 'handler'>> & { bindings: readonly string[]; handler: EventHandler };

const QUEUE_NAME = /^[A-Za-z0-9_.:-]{1,200}$/;

export function resolveSpec<B extends EventBinding>(input: SubscriptionSpec<B>): ResolvedSpec {
  // The handler's narrower event type holds by the bindings and the consume-side check.
  const spec = input as unknown as ResolvedSpec;
  if (!QUEUE_NAME.test(spec.queue)) throw new Error(`invalid queue name "${spec.queue}"`);
  if (/\.(dlq|retry)(\.|$)/.test(spec.queue)) throw new Error(`queue name "${spec.queue}" uses a reserved suffix`);
  if (!Array.isArray(spec.bindings) || spec.bindings.length === 0) throw new Error(`subscription ${spec.queue} needs at least one binding`);
  const prefetch = spec.prefetch ?? DEFAULT_PREFETCH;
  const maxAttempts = spec.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const retryDelaysMs = spec.retryDelaysMs ?? [...DEFAULT_RETRY_DELAYS_MS];
  if (!Number.isInteger(prefetch) || prefetch < 1) throw new Error(`prefetch must be a positive integer (queue ${spec.queue})`);
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error(`maxAttempts must be a positive integer (queue ${spec.queue})`);
  if (retryDelaysMs.length === 0 || retryDelaysMs.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new Error(`retryDelaysMs must be non-negative integers (queue ${spec.queue})`);
  }
  return { ...spec, prefetch, maxAttempts, retryDelaysMs };
}

/** The wait after the given failed attempt (1-based); the last delay repeats. */
export function retryDelayFor(retryDelaysMs: readonly number[], failedAttempt: number): number {
  return retryDelaysMs[Math.min(failedAttempt, retryDelaysMs.length) - 1]!;
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
