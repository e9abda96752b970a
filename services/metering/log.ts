// The metering process's logger (the shared process logger: pino over bounded outputs). Callers never pass
// request payloads (they may hold a key).
import { createLogger } from '../shared/log/logger.ts';

import type { DroppedLines } from '../shared/log/bounded-output.ts';

export interface Log {
  info(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
  /** Log lines dropped since start because the log reader did not keep up (for the metrics). */
  dropped?(): DroppedLines;
}

export function createLog(service: string): Log {
  const log = createLogger({ service });
  return { info: log.info, error: log.error, dropped: log.dropped };
}

export const silentLog: Log = { info: () => {}, error: () => {} };
