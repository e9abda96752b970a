// The one typed bag of dependencies built in main.ts and handed to every route and page.
import type { ApiConfig } from './config.ts';
import type { ResponseBuffers } from './http/response-buffers.ts';
import type { Meter } from './metering-client/meter.ts';
import type { WorkerStats } from './metrics/worker-stats.ts';
import type { SnapshotFallback } from '../../snapshot/reader/open-checked.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';

export interface Logger {
  info(fields: Record<string, unknown>): void;
  /** A warning (stdout, level warn); optional so that test loggers need only info/error. */
  warn?(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
  /**
   * The per-request line (hot path): method, route pattern, status, duration, key prefix (never the key).
   * Optional so that test loggers need only info/error; the pipeline falls back to info().
   */
  request?(method: string, route: string, status: number, ms: number, keyPrefix?: string): void;
  /** Writes out anything buffered (at shutdown). */
  flush(): void;
  /** Log lines dropped since start because the log reader did not keep up (for the metrics). */
  dropped?(): { request: number; other: number };
}

export interface Deps {
  config: ApiConfig;
  snapshot: Snapshot;
  meter: Meter;
  log: Logger;
  /** Counters for the metrics, incremented on the request path (plain numbers, read at scrape time). */
  stats: WorkerStats;
  /** Injected clock (ms since epoch) so that day boundaries can be tested. */
  now: () => number;
  /** Set when the configured snapshot failed its check and an older one is served (/healthz: degraded). */
  snapshotFallback?: SnapshotFallback;
  /**
   * Told of an error that says the snapshot file is damaged (SQLite found it corrupt while serving); the
   * process passes one that stops the worker, so that pm2 starts it again on a snapshot that passes its check.
   */
  onSnapshotFault?: (error: unknown) => void;
  /** The bytes held for clients that do not read, and their bound and timeout; createApp makes one if absent. */
  responseBuffers?: ResponseBuffers;
}
