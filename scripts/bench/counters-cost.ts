// CPU per request of the metrics' counters on the request path (a route's count and duration, an admission),
// against a prom-client Counter and Histogram updated per request. Run: node --import tsx scripts/bench/counters-cost.ts
import { Counter, Histogram, Registry } from 'prom-client';

import { DURATION_BUCKETS_MS, WorkerCounters } from '../../services/api/metrics/worker-stats.ts';

const REQUESTS = 5_000_000;
const WARM_UP = 500_000;
const ROUNDS = 3;
const ROUTES = ['GET /api/v1/words', 'GET /api/v1/words/:id', 'GET /api/v1/stats', 'GET /api/v1/languages', 'GET /api/v1/word-of-the-day'];

/** ns of CPU (user + system) per request. */
function cpuPerRequest(record: (i: number) => void): number {
  for (let i = 0; i < WARM_UP; i++) record(i);
  const start = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) record(i);
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / REQUESTS;
}

const counters = new WorkerCounters();
const registry = new Registry();
const requests = new Counter({ name: 'requests_total', help: 'h', labelNames: ['route', 'status'], registers: [registry] });
const durations = new Histogram({
  name: 'duration_seconds',
  help: 'h',
  labelNames: ['route'],
  buckets: DURATION_BUCKETS_MS.map((ms) => ms / 1000),
  registers: [registry],
});
const admissions = new Counter({ name: 'admissions_total', help: 'h', labelNames: ['endpoint', 'result', 'reason'], registers: [registry] });

const results: Record<string, number[]> = { 'plain counters (WorkerCounters)': [], 'prom-client per request': [] };
for (let round = 0; round < ROUNDS; round++) {
  results['plain counters (WorkerCounters)'].push(
    cpuPerRequest((i) => {
      const route = ROUTES[i % ROUTES.length];
      counters.admitted(route, 'held');
      counters.request(route, 200, (i % 50) / 100);
    }),
  );
  results['prom-client per request'].push(
    cpuPerRequest((i) => {
      const route = ROUTES[i % ROUTES.length];
      admissions.inc({ endpoint: route, result: 'admitted', reason: 'held' });
      requests.inc({ route, status: 200 });
      durations.observe({ route }, (i % 50) / 100_000);
    }),
  );
}
for (const [name, values] of Object.entries(results)) {
  const sorted = [...values].sort((a, b) => a - b);
  console.log(`${name}: ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ns of CPU per request (median of ${ROUNDS} rounds of ${REQUESTS})`);
}
