// Personas made and failed, and how long their PDFs take, for /metrics.
import type { MetricsRegistry } from '@persona/service-kit';

export interface PersonaMetrics {
  /** A Persona was recorded ready (once per Persona; a redelivery does not count again). */
  made(): void;
  /** A Persona was recorded failed after its last attempt. */
  failed(): void;
  /** One PDF build, successful or not. */
  built(seconds: number, outcome: 'ok' | 'error'): void;
}

export const NO_PERSONA_METRICS: PersonaMetrics = { made: () => undefined, failed: () => undefined, built: () => undefined };

export function personaMetrics(registry: MetricsRegistry): PersonaMetrics {
  const made = registry.counter({ name: 'personas_made_total', help: 'Personas made and recorded ready' });
  const failed = registry.counter({ name: 'personas_failed_total', help: 'Personas recorded as failed after their last attempt' });
  const build = registry.histogram({
    name: 'persona_pdf_build_seconds',
    help: 'Time to build one Persona PDF on a worker thread, by outcome',
    labelNames: ['outcome'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
  });
  return {
    made: () => made.inc(),
    failed: () => failed.inc(),
    built: (seconds, outcome) => build.observe({ outcome }, seconds),
  };
}
