// Admissions a running metering service makes per second: the request a worker sends it per admission it
// cannot decide alone, for many keys at once (the subject's own kind: a block granted to a holder, or, where
// the subject counts one request at a time, that count), `in flight` at a time, with the metering processes'
// CPU per admission. Prints JSON.
//   node --import tsx scripts/bench/metering-admissions.ts --root <tree> --nats <url> --pids <pid,pid> --seconds 5
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

import { connect } from 'nats';

import { cpuSecondsOf } from './proc-stats.ts';
import { subjectModule } from './subject-module.ts';

type ClientModule = typeof import('../../services/shared/metering-protocol/client.ts');
type ProtocolModule = typeof import('../../services/shared/metering-protocol/protocol.ts');
type OpsModule = typeof import('../../services/shared/metering-protocol/ops-protocol.ts');
type SubjectsModule = typeof import('../../services/shared/metering-protocol/subjects.ts');
type KeysModule = typeof import('../../services/shared/metering-protocol/keys.ts');
type DayModule = typeof import('../../services/shared/metering-protocol/day.ts');

export interface MeteringAdmissions {
  kind: 'grant' | 'count';
  admissions: number;
  seconds: number;
  perSecond: number;
  /** CPU of the metering processes per admission, in µs. */
  cpuMicros: number;
}

const KEYS = 200;
const IN_FLIGHT = 64;
const ENDPOINTS = ['GET /api/v1/words', 'GET /api/v1/words/{id}', 'GET /api/v1/word-of-the-day', 'GET /api/v1/languages', 'GET /api/v1/stats'] as const;

const { values } = parseArgs({ options: { root: { type: 'string' }, nats: { type: 'string' }, pids: { type: 'string' }, seconds: { type: 'string' } } });
if (!values.root || !values.nats || !values.pids) throw new Error('--root, --nats and --pids are required');
const root = values.root;
const pids = values.pids.split(',').map(Number);
const seconds = Number(values.seconds ?? 5);
const { call } = await subjectModule<ClientModule>(root, 'services/shared/metering-protocol/client.ts');
const { RPC } = await subjectModule<ProtocolModule>(root, 'services/shared/metering-protocol/protocol.ts');
const { OPS } = await subjectModule<OpsModule>(root, 'services/shared/metering-protocol/ops-protocol.ts');
const subjects = await subjectModule<SubjectsModule>(root, 'services/shared/metering-protocol/subjects.ts');
const { hashApiKey } = await subjectModule<KeysModule>(root, 'services/shared/metering-protocol/keys.ts');
const { utcDay } = await subjectModule<DayModule>(root, 'services/shared/metering-protocol/day.ts');

const nc = await connect({ servers: values.nats });
// Institution keys (500,000 a day), so that every request is granted a block or counted, not refused.
const email = 'bench-admissions@bench.invalid';
const hashes: string[] = [];
for (let i = 0; i < KEYS; i++) {
  const { apiKey } = await call(nc, RPC.register, { input: { name: 'Bench', email }, clientIp: `10.9.${i >> 8}.${i & 255}` });
  hashes.push(hashApiKey(apiKey));
}
await call(nc, OPS.developersSetPlan, { email, plan: 'institution', allKeys: true } as never);

// A subject that counts single requests (no shards) is measured on that; one with shards on grants, routed.
const rpcs = RPC as unknown as Record<string, { subject: string } | undefined>;
const counts = rpcs.admit !== undefined;
const shardOf = (subjects as Partial<SubjectsModule>).shardOf;
const leaseSubject = (subjects as Partial<SubjectsModule>).leaseSubject;
const day = utcDay(Date.now());

async function one(i: number): Promise<void> {
  const keyHash = hashes[i % KEYS];
  const endpoint = ENDPOINTS[Math.floor(i / KEYS) % ENDPOINTS.length];
  // A holder of its own per request: each grant is a fresh block, as many hosts' first requests are.
  const base = { holder: randomBytes(8).toString('hex'), worker: 'bench', requestId: randomBytes(8).toString('hex'), keyHash, endpoint, day };
  if (counts) await call(nc, rpcs.admit as never, base as never);
  else await call(nc, RPC.lease, { ...base, want: 1 }, shardOf && leaseSubject ? { subject: leaseSubject(shardOf(keyHash)) } : {});
}

const cpuBefore = cpuSecondsOf(pids);
const started = performance.now();
const until = started + seconds * 1000;
let sent = 0;
let done = 0;
await Promise.all(
  Array.from({ length: IN_FLIGHT }, async () => {
    while (performance.now() < until) {
      await one(sent++);
      done++;
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;
const cpu = cpuSecondsOf(pids) - cpuBefore;
await nc.close();
const result: MeteringAdmissions = { kind: counts ? 'count' : 'grant', admissions: done, seconds: elapsed, perSecond: done / elapsed, cpuMicros: (1e6 * cpu) / done };
process.stdout.write(`${JSON.stringify(result)}\n`);
