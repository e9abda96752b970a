// JSON-lines logger for the worker: info lines are batched per event-loop turn (one write instead of one
// per request under load), errors are written at once.
import type { Logger } from './deps.ts';

/** Flush early when a turn produces this much log text. */
const MAX_BUFFERED_CHARS = 64 * 1024;

export function createLogger(
  base: Record<string, unknown>,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Logger {
  const prefix = JSON.stringify(base).slice(0, -1);
  let buffer = '';
  let scheduled = false;

  const line = (fields: Record<string, unknown>): string => {
    const body = JSON.stringify({ time: new Date().toISOString(), ...fields });
    // Splice the fixed fields in without re-serialising them per line.
    return prefix === '{' ? `${body}\n` : `${prefix},${body.slice(1)}\n`;
  };
  const flush = (): void => {
    scheduled = false;
    if (buffer === '') return;
    const chunk = buffer;
    buffer = '';
    out.write(chunk);
  };

  const append = (text: string): void => {
    buffer += text;
    if (buffer.length >= MAX_BUFFERED_CHARS) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  const requestPrefix = prefix === '{' ? '{' : `${prefix},`;

  return {
    info(fields) {
      append(line({ level: 'info', ...fields }));
    },
    request(method, route, status, ms, keyPrefix) {
      // Written by hand: this runs once per request. Method, route and key prefix come from closed sets of
      // safe characters (route patterns are constants, prefixes are svc_live_ + hex); JSON.stringify guards
      // the method anyway.
      const key = keyPrefix === undefined ? '' : `,"keyPrefix":"${keyPrefix}"`;
      append(
        `${requestPrefix}"time":"${new Date().toISOString()}","level":"info","msg":"request","method":${JSON.stringify(method)},` +
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
