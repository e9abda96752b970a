// Measures the worker-side Meter: admissions per second from held blocks and NATS round trips per
// admission under steady load, and one admission at a time, each counted by the service (real nats-server,
// metering service in-process). `npx tsx scripts/bench-metering.ts`
import { connect } from 'nats';

import { startMeteringInProcess, workerMeter } from '../test/metering/support.ts';
import { startNats } from '../test/support/nats.ts';
import { call } from '../services/shared/metering/client.ts';
import { OPS } from '../services/shared/metering/ops-protocol.ts';
import { SUBJECTS } from '../services/shared/metering/subjects.ts';

const ADMISSIONS = 400_000;
/** One at a time, each admission is a round trip: fewer of them. */
const SEQUENTIAL_ADMISSIONS = 5_000;
const IN_FLIGHT = 64;

const nats = await startNats();
const svc = await startMeteringInProcess(nats.url);
const meter = await workerMeter(nats.url, 'bench');
const spy = await connect({ servers: nats.url });
const counts = { lease: 0, release: 0, admit: 0 };
spy.subscribe(SUBJECTS.lease, { callback: () => counts.lease++ });
spy.subscribe(SUBJECTS.release, { callback: () => counts.release++ });
spy.subscribe(SUBJECTS.admit, { callback: () => counts.admit++ });
await spy.flush();

const reg = await meter.register({ name: 'Bench', email: 'bench@example.org' }, '10.0.0.1');
await call(spy, OPS.developersSetPlan, { email: 'bench@example.org', plan: 'institution' });

async function measure(label: string, endpoint: 'GET /api/v1/words' | 'GET /api/v1/stats', concurrent: number, admissions = ADMISSIONS) {
  await spy.flush();
  const before = { ...counts };
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next++ < admissions) await meter.admit(reg.apiKey, endpoint);
  };
  await Promise.all(Array.from({ length: concurrent }, lane));
  const seconds = (performance.now() - started) / 1000;
  await spy.flush();
  const trips = counts.lease - before.lease + (counts.release - before.release) + (counts.admit - before.admit);
  console.log(
    `${label}: ${Math.round(admissions / seconds).toLocaleString('en')} admissions/s, ` +
      `${trips} round trips for ${admissions.toLocaleString('en')} (${(trips / admissions).toFixed(5)} per admission)`,
  );
}

/** Round trips (lease + release) to use up a whole day's allowance of one plan, 8 requests in flight. */
async function wholeDay(plan: 'free' | 'team', limit: number) {
  const email = `bench-${plan}@example.org`;
  const key = await meter.register({ name: 'Bench', email }, `10.0.1.${limit % 250}`);
  if (plan !== 'free') await call(spy, OPS.developersSetPlan, { email, plan });
  await spy.flush();
  const before = counts.lease + counts.release + counts.admit;
  let next = 0;
  const lane = async () => {
    while (next++ < limit) await meter.admit(key.apiKey, 'GET /api/v1/languages');
  };
  await Promise.all(Array.from({ length: 8 }, lane));
  await spy.flush();
  const trips = counts.lease + counts.release + counts.admit - before;
  console.log(`${plan} day (${limit.toLocaleString('en')} admissions): ${trips} round trips (${(trips / limit).toFixed(4)} per admission)`);
}

await wholeDay('free', 1_000);
await wholeDay('team', 50_000);
await meter.admit(reg.apiKey, 'GET /api/v1/words'); // warm up the key
await measure('sequential (1 in flight, each counted by the service)', 'GET /api/v1/words', 1, SEQUENTIAL_ADMISSIONS);
await measure(`concurrent (${IN_FLIGHT} in flight)`, 'GET /api/v1/stats', IN_FLIGHT);

await meter.close();
await spy.close();
await svc.stop();
await nats.stop();
