// CPU per request line: the API worker's hand-formatted line against pino's serialisation of the same fields,
// both through the worker's bounded output into a stream that takes every write. Decides how the per-request
// line is made (services/api/log.ts). Run: node --import tsx scripts/bench/log-cost.ts
import { Writable } from 'node:stream';

import { createApiLogger } from '../../services/api/log.ts';
import { createLogger } from '../../services/shared/log/logger.ts';

const LINES = 1_000_000;
const WARM_UP = 200_000;
const ROUNDS = 3;

const discard = (): Writable =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

const base = { service: 'api', worker: 'api-0@bench' };
const byHand = createApiLogger(base, { mode: 'all', sampleEvery: 1 }, { out: discard(), err: discard() });
const viaPino = createLogger(base, { out: discard(), err: discard() });

/** µs of CPU (user + system) per line. */
function cpuPerLine(write: (i: number) => void): number {
  for (let i = 0; i < WARM_UP; i++) write(i);
  const start = process.cpuUsage();
  for (let i = 0; i < LINES; i++) write(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / LINES;
}

const results: Record<string, number[]> = { 'by hand (services/api/log.ts)': [], 'pino info()': [] };
for (let round = 0; round < ROUNDS; round++) {
  results['by hand (services/api/log.ts)'].push(
    cpuPerLine((i) => byHand.request?.('GET', 'GET /api/v1/words/:id', 200, (i % 100) / 10, 'svc_live_0123abcd')),
  );
  results['pino info()'].push(
    cpuPerLine((i) =>
      viaPino.info({ msg: 'request', method: 'GET', route: 'GET /api/v1/words/:id', status: 200, ms: (i % 100) / 10, keyPrefix: 'svc_live_0123abcd' }),
    ),
  );
}
byHand.flush();
for (const [name, values] of Object.entries(results)) {
  const sorted = [...values].sort((a, b) => a - b);
  console.log(`${name}: ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} µs of CPU per line (median of ${ROUNDS} rounds of ${LINES})`);
}
