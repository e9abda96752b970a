// What a request costs inside an API worker, read back from the workers' own request log (pm2's log files
// in the bench's PM2_HOME): the `ms` of each line is the time from the request's callback to its response,
// without the time it waited to be read. Set against wrk's latency, it says whether a tail comes from the
// handlers or from the wait.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { percentile, sortedFloat64 } from './stats.ts';

export interface HandlerTimes {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
}

/** Where each API worker's log file ends now: the next run's lines start there. */
export type LogMarks = Map<string, number>;

/** The workers write their request lines every 50 ms (services/shared/log/bounded-output.ts); wait a little longer. */
const FLUSH_WAIT_MS = 200;
const CHUNK_BYTES = 8 * 1024 * 1024;
const MS_FIELD = /"msg":"request".*?"ms":([0-9.]+)/;

function apiLogs(pm2Home: string): string[] {
  const dir = path.join(pm2Home, 'logs');
  try {
    return fs.readdirSync(dir).filter((f) => /^api-out(-\d+)?\.log$/.test(f)).map((f) => path.join(dir, f));
  } catch {
    return [];
  }
}

export function markRequestLogs(pm2Home: string): LogMarks {
  return new Map(apiLogs(pm2Home).map((file) => [file, fs.statSync(file).size]));
}

/** Handler times of the requests the workers logged since `marks`. */
export async function handlerTimesSince(pm2Home: string, marks: LogMarks): Promise<HandlerTimes> {
  await sleep(FLUSH_WAIT_MS);
  const times: number[] = [];
  for (const file of apiLogs(pm2Home)) {
    const fd = fs.openSync(file, 'r');
    try {
      let position = marks.get(file) ?? 0;
      const buffer = Buffer.alloc(CHUNK_BYTES);
      let rest = '';
      for (;;) {
        const read = fs.readSync(fd, buffer, 0, CHUNK_BYTES, position);
        if (read === 0) break;
        position += read;
        const lines = (rest + buffer.toString('utf8', 0, read)).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) {
          const m = MS_FIELD.exec(line);
          if (m) times.push(Number(m[1]));
        }
      }
    } finally {
      fs.closeSync(fd);
    }
  }
  const sorted = sortedFloat64(times);
  return {
    requests: times.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    p999Ms: percentile(sorted, 99.9),
    maxMs: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
  };
}
