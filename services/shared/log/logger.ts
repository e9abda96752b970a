// A process's JSON-lines logger: pino formats the lines, written through bounded outputs (info and warnings on
// stdout, errors on stderr) so that a log reader that stops cannot grow the process. Callers never pass
// secrets (keys, request payloads).
import { pino } from 'pino';

import { inertJsonLine, jsonLine } from '../printable.ts';
import { BoundedOutput } from './bounded-output.ts';

import type { BoundedOutputOptions, DroppedLines, LogStream } from './bounded-output.ts';

export interface ProcessLogger {
  info(fields: Record<string, unknown>): void;
  warn(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
  /** The output of request lines (stdout), for a hand-formatted line per request. */
  readonly out: BoundedOutput;
  /** `{"service":…,…` : the fixed fields as JSON without the closing brace, for hand-formatted lines. */
  readonly prefix: string;
  /** Writes out any waiting request lines (at shutdown). */
  flush(): void;
  /** Lines dropped since start, over both streams. */
  dropped(): DroppedLines;
}

export interface LoggerStreams {
  out?: LogStream;
  err?: LogStream;
  /** Bounds of both outputs (tests use small ones). */
  bounds?: Omit<BoundedOutputOptions, 'onCaughtUp'>;
}

export function createLogger(base: Record<string, string>, streams: LoggerStreams = {}): ProcessLogger {
  // Reported once the stream has drained, as a warning on stdout (stderr's own drops as well).
  const caughtUp = (stream: string) => (dropped: DroppedLines) =>
    logger.warn({ msg: 'log lines dropped: the log reader did not keep up', stream, requestLines: dropped.request, otherLines: dropped.other });
  const out = new BoundedOutput(streams.out ?? process.stdout, { ...streams.bounds, onCaughtUp: caughtUp('stdout') });
  const err = new BoundedOutput(streams.err ?? process.stderr, { ...streams.bounds, onCaughtUp: caughtUp('stderr') });
  const logger = pino(
    {
      base,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.multistream(
      [
        // inertJsonLine: text from clients (a page's path, a registered name) cannot drive the terminal showing the log.
        { level: 'info', stream: { write: (line: string) => out.line(inertJsonLine(line)) } },
        // The request lines before an error go out first, as they happened.
        {
          level: 'error',
          stream: {
            write: (line: string) => {
              out.flush();
              err.line(inertJsonLine(line));
            },
          },
        },
      ],
      // Each line goes to the one stream of the highest level it reaches: errors to stderr only.
      { dedupe: true },
    ),
  );
  return {
    info: (fields) => logger.info(fields),
    warn: (fields) => logger.warn(fields),
    error: (fields) => logger.error(fields),
    out,
    prefix: jsonLine(base).slice(0, -1),
    flush: () => out.flush(),
    dropped: () => ({ request: out.dropped.request + err.dropped.request, other: out.dropped.other + err.dropped.other }),
  };
}
