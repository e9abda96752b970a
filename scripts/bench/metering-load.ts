// A worker's Meter (the subject's nats-meter.ts) against a running metering service: admissions per second
// from held blocks, and the NATS round trips (lease and release requests) per admission, under steady load
// and over a whole day's allowance. Prints JSON.
//   node --import tsx scripts/bench/metering-load.ts --root <tree> --nats <url>
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { connect } from 'nats';

import type { MeteredEndpoint } from '../../services/shared/plans.ts';
import { subjectModule } from './subject-module.ts';

type MeterModule = typeof import('../../services/api/metering-client/nats-meter.ts');
type ClientModule = typeof import('../../services/shared/metering-protocol/client.ts');
type OpsModule = typeof import('../../services/shared/metering-protocol/ops-protocol.ts');
type SubjectsModule = typeof import('../../services/shared/metering-protocol/subjects.ts');

export interface SteadyLoad {
  inFlight: number;
  admissions: number;
  admissionsPerSecond: number;
  roundTripsPerAdmission: number;
}

export interface WholeDay {
  plan: 'free' | 'team';
  admissions: number;
  roundTrips: number;
}

export interface MeteringLoad {
  steady: SteadyLoad[];
  days: WholeDay[];
}

const ADMISSIONS = 400_000;
const IN_FLIGHT = 64;
/** In flight while a whole day is used up: a few concurrent clients of one key. */
const DAY_IN_FLIGHT = 8;
const READY_TIMEOUT_MS = 10_000;

const { values } = parseArgs({ options: { root: { type: 'string' }, nats: { type: 'string' } } });
if (!values.root || !values.nats) throw new Error('--root and --nats are required');
const root = values.root;
const natsUrl = values.nats;
const { connectMeter } = await subjectModule<MeterModule>(root, 'services/api/metering-client/nats-meter.ts');
const { call } = await subjectModule<ClientModule>(root, 'services/shared/metering-protocol/client.ts');
const { OPS } = await subjectModule<OpsModule>(root, 'services/shared/metering-protocol/ops-protocol.ts');
const { SUBJECTS } = await subjectModule<SubjectsModule>(root, 'services/shared/metering-protocol/subjects.ts');

const spy = await connect({ servers: natsUrl });
const counts = { trips: 0 };
spy.subscribe(SUBJECTS.lease, { callback: () => counts.trips++ });
spy.subscribe(SUBJECTS.release, { callback: () => counts.trips++ });
// Admissions counted one at a time (a key not at volume), where the subject has them.
const admitSubject = (SUBJECTS as Partial<Record<string, string>>).admit;
if (admitSubject !== undefined) spy.subscribe(admitSubject, { callback: () => counts.trips++ });
await spy.flush();
// The host's shared allowance lives in DATA_DIR (a subject without one ignores the option).
const hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dict-bench-host-'));
const meter = await connectMeter({ natsUrl, workerName: 'bench', dataDir: hostDir });
const deadline = Date.now() + READY_TIMEOUT_MS;
// health() where the subject has it, reachable() before.
const answers = async (): Promise<boolean> => {
  const m = meter as unknown as { health?: () => Promise<{ reachable: boolean }>; reachable?: () => Promise<boolean> };
  return m.health ? (await m.health()).reachable : (await m.reachable?.()) === true;
};
while (!(await answers())) {
  if (Date.now() > deadline) throw new Error('the metering service did not answer');
}

/** Runs `admissions` admissions of one key, `inFlight` at a time; the round trips counted meanwhile. */
async function load(key: string, endpoint: MeteredEndpoint, admissions: number, inFlight: number): Promise<{ seconds: number; trips: number }> {
  await spy.flush();
  const before = counts.trips;
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next++ < admissions) await meter.admit(key, endpoint);
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const seconds = (performance.now() - started) / 1000;
  await spy.flush();
  return { seconds, trips: counts.trips - before };
}

async function key(email: string, plan: 'free' | 'team' | 'institution', clientIp: string): Promise<string> {
  const { apiKey } = await meter.register({ name: 'Bench', email }, clientIp);
  if (plan !== 'free') await call(spy, OPS.developersSetPlan, { email, plan, allKeys: true });
  return apiKey;
}

const days: WholeDay[] = [];
for (const [plan, limit, ip] of [['free', 1_000, '10.0.1.1'], ['team', 50_000, '10.0.1.2']] as const) {
  const { trips } = await load(await key(`bench-${plan}@bench.invalid`, plan, ip), 'GET /api/v1/languages', limit, DAY_IN_FLIGHT);
  days.push({ plan, admissions: limit, roundTrips: trips });
}
const institution = await key('bench@bench.invalid', 'institution', '10.0.0.1');
// The first admission of a key waits for its first lease; the steady figures start once a block is held.
await meter.admit(institution, 'GET /api/v1/words');
const steady: SteadyLoad[] = [];
for (const [inFlight, endpoint] of [[1, 'GET /api/v1/words'], [IN_FLIGHT, 'GET /api/v1/stats']] as const) {
  const { seconds, trips } = await load(institution, endpoint, ADMISSIONS, inFlight);
  steady.push({ inFlight, admissions: ADMISSIONS, admissionsPerSecond: ADMISSIONS / seconds, roundTripsPerAdmission: trips / ADMISSIONS });
}
await meter.close();
await spy.close();
fs.rmSync(hostDir, { recursive: true, force: true });
const result: MeteringLoad = { steady, days };
process.stdout.write(`${JSON.stringify(result)}\n`);
