// The personalisation service as its service tests start it: on a fresh PGlite stack, with a
// Personas folder of its own, no catalogue to call unless a test gives readers; `close` stops it
// and removes both (service-on.ts, on PGlite).
import type { PersonalizationServiceOptions } from '../../src/service';
import { startServiceOn } from './service-on';

export const startTestService = (overrides: Partial<PersonalizationServiceOptions> = {}) => startServiceOn('pglite', overrides);
