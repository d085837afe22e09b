import type { BusLogger } from './types';

const noop = () => undefined;
export const SILENT_LOGGER: BusLogger = { info: noop, warn: noop, error: noop, debug: noop };
