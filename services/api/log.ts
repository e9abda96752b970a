// JSON-lines logger for the worker: info lines are batched for a few milliseconds (one write instead of
// one per request under load: pm2 pays per chunk it reads from the pipe), errors are written at once.
import type { Logger } from './deps.ts';

/** Flush early when this much log text is waiting. */
const MAX_BUFFERED_CHARS = 64 * 1024;
/**
 * Longest a request line waits before it is written. A write per event-loop turn would still be one pipe
 * write per couple of requests under load, each a chunk pm2's daemon reads and publishes on its bus.
 */
const LOG_FLUSH_INTERVAL_MS = 50;

export function createLogger(
  base: Record<string, unknown>,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Logger {
  const prefix = JSON.stringify(base).slice(0, -1);
  // Lines waiting, joined at the flush. Appending each line to one string would build a rope of hundreds of
  // lines that the write has to flatten before encoding it, at several times the cost of the join.
  let pending: string[] = [];
  let pendingChars = 0;
  let scheduled = false;

  const line = (fields: Record<string, unknown>): string => {
    const body = JSON.stringify({ time: new Date().toISOString(), ...fields });
    // Splice the fixed fields in without re-serialising them per line.
    return prefix === '{' ? `${body}\n` : `${prefix},${body.slice(1)}\n`;
  };
  const flush = (): void => {
    scheduled = false;
    if (pendingChars === 0) return;
    const chunk = pending.join('');
    pending = [];
    pendingChars = 0;
    out.write(chunk);
  };

  const append = (text: string): void => {
    pending.push(text);
    pendingChars += text.length;
    if (pendingChars >= MAX_BUFFERED_CHARS) flush();
    else if (!scheduled) {
      scheduled = true;
      setTimeout(flush, LOG_FLUSH_INTERVAL_MS).unref();
    }
  };
  const requestPrefix = prefix === '{' ? '{' : `${prefix},`;
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
    info(fields) {
      append(line({ level: 'info', ...fields }));
    },
    request(method, route, status, ms, keyPrefix) {
      // Built as text, not with JSON.stringify: this runs once per request. Method, route and key prefix come
      // from closed sets of safe characters (route patterns are constants, prefixes are svc_live_ + hex);
      // JSON.stringify guards the method anyway.
      const key = keyPrefix === undefined ? '' : `,"keyPrefix":"${keyPrefix}"`;
      append(
        `${requestPrefix}"time":"${isoNow()}","level":"info","msg":"request","method":${JSON.stringify(method)},` +
          `"route":"${route}","status":${status},"ms":${ms}${key}}\n`,
      );
    },
    error(fields) {
      flush();
      err.write(line({ level: 'error', ...fields }));
    },
    flush,
  };
}
