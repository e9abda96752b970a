// The one typed bag of dependencies built in main.ts and handed to every route and page.
import type { ApiConfig } from './config.ts';
import type { Meter } from './metering/meter.ts';
import type { Snapshot } from './snapshot/snapshot.ts';

export interface Logger {
  info(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
}

export interface Deps {
  config: ApiConfig;
  snapshot: Snapshot;
  meter: Meter;
  log: Logger;
  /** Injected clock (ms since epoch) so that day boundaries can be tested. */
  now: () => number;
}
