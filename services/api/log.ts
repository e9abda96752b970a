// The API worker's logger: the process logger (pino, bounded outputs) plus the per-request line, formatted by
// hand and batched, and written for every request, for server errors only, or for a sample (REQUEST_LOG).
import { createLogger } from '../shared/log/logger.ts';
import { jsonLine } from '../shared/printable.ts';

import type { LoggerStreams } from '../shared/log/logger.ts';
import type { RequestLogConfig } from './config.ts';
import type { Logger } from './deps.ts';

/** Responses from this status on are server errors: logged in every mode. */
const SERVER_ERROR = 500;
const GET_JSON = '"GET"';

export function createApiLogger(base: Record<string, string>, requestLog: RequestLogConfig, streams: LoggerStreams = {}): Logger {
  const log = createLogger(base, streams);
  const { out } = log;
  const requestPrefix = log.prefix === '{' ? '{' : `${log.prefix},`;
  const { mode, sampleEvery } = requestLog;
  /** Requests since the last sampled one. */
  let unsampled = 0;
  // One ISO timestamp per millisecond, not per request.
  let stampMs = 0;
  let stamp = '';
  const isoNow = (): string => {
    const ms = Date.now();
    if (ms !== stampMs) {
      stampMs = ms;
      stamp = new Date(ms).toISOString();
    }
    return stamp;
  };

  return {
    info: log.info,
    warn: log.warn,
    error: log.error,
    request(method, route, status, ms, keyPrefix) {
      if (status < SERVER_ERROR && mode !== 'all') {
        // A counter, not a random draw: one in sampleEvery whatever the traffic, at the cost of an increment.
        if (mode === 'errors' || ++unsampled < sampleEvery) return;
        unsampled = 0;
      }
      // Written by hand: this runs once per request, where pino's serialisation costs a worker several times
      // as much (scripts/bench/log-cost.ts). Method, route and key prefix come from closed sets of safe
      // characters (route patterns are constants, prefixes are svc_live_ + hex); the method is the client's,
      // encoded by jsonLine (GET, the metered routes' own, without a call).
      const key = keyPrefix === undefined ? '' : `,"keyPrefix":"${keyPrefix}"`;
      out.request(
        `${requestPrefix}"time":"${isoNow()}","level":"info","msg":"request","method":${method === 'GET' ? GET_JSON : jsonLine(method)},` +
          `"route":"${route}","status":${status},"ms":${ms}${key}}\n`,
      );
    },
    flush: log.flush,
    dropped: log.dropped,
  };
}
