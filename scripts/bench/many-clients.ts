// Section "many-clients": many ordinary clients at once. Light free keys (1,000 and 10,000, registered from
// many loopback addresses), each request with the next key, against 8 institution keys at volume on the same
// endpoint, in alternating pairs at 32 and 256 connections; a client sending one request at a time; and the
// admissions the metering service makes per second with 1 and 2 metering processes.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { DAILY_LIMITS } from '../../services/shared/plans.ts';
import type { BenchContext, BenchResults, Figure, Section, SectionResults } from './context.ts';
import { raiseToInstitution, registerKeys } from './keys.ts';
import { f1, f2, n0, table } from './markdown.ts';
import type { MeteringAdmissions } from './metering-admissions.ts';
import { cpuSecondsOf } from './proc-stats.ts';
import { freePort, runBenchScript, startChild, stopChild, waitForLog } from './processes.ts';
import { measureOneAtATime, type OneAtATime } from './one-at-a-time.ts';
import { meteringPids, startStack, type Stack } from './stack.ts';
import { subjectModule } from './subject-module.ts';
import { median } from './stats.ts';
import { runWrk, type WrkOptions, type WrkResult } from './wrk.ts';

export const LIGHT_KEY_COUNTS = [1_000, 10_000] as const;
export const MANY_CLIENTS_CONNECTIONS = [32, 256] as const;
const PATH = '/api/v1/stats';
const VOLUME_KEYS = 8;
/**
 * The rate a run's keys at volume are sized for. At 60,000-100,000 req/s a run of 10 s spends 75,000-125,000 of
 * each of the 8 keys' 500,000 a day: one set for the whole section would run out partway and the later runs at
 * volume would measure 429s. Each run takes a fresh set instead, as the light keys do.
 */
const VOLUME_RPS_CEILING = 200_000;
/** The rate a run's light keys are sized for, and the share of a free key's day a set of them may use. */
const LIGHT_RPS_CEILING = 80_000;
const KEY_USE_SHARE = 0.8;
const WARMUP_SECONDS = 3;
const READY_TIMEOUT_MS = 20_000;

/** One wrk run, with the metering processes' CPU per 1,000 requests. */
export interface MixRun extends WrkResult {
  meteringCpuMsPer1000: number;
}

export interface MixResult {
  lightKeys: number;
  connections: number;
  volume: MixRun[];
  light: MixRun[];
  median: { volumeRps: number; lightRps: number; ratio: number; lightP50Ms: number; lightP99Ms: number; volumeP99Ms: number; lightMeteringMs: number; volumeMeteringMs: number };
  /** Non-2xx responses and socket errors over the light runs. */
  failures: number;
}

export interface MeteringScale {
  processes: number;
  /** Undefined where the subject cannot run that many (it has no shards). */
  admissions?: MeteringAdmissions;
}

export interface ManyClientsResult {
  mixes: MixResult[];
  oneAtATime: OneAtATime[];
  metering: MeteringScale[];
}

/** Requests in flight while priming the keys. */
const PRIME_CONCURRENCY = 32;

/** One request of each key, PRIME_CONCURRENCY at a time over keep-alive connections. */
async function prime(stack: Stack, keys: readonly string[]): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: PRIME_CONCURRENCY });
  let next = 0;
  let failed = 0;
  const lane = async () => {
    while (next < keys.length) {
      const apiKey = keys[next++];
      const status = await new Promise<number>((resolve) => {
        const req = http.get(`${stack.base}${PATH}`, { agent, headers: { 'x-api-key': apiKey } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', () => resolve(0));
      });
      if (status !== 200) failed++;
    }
  };
  await Promise.all(Array.from({ length: PRIME_CONCURRENCY }, lane));
  agent.destroy();
  if (failed > 0) throw new Error(`priming the light keys: ${failed} of ${keys.length} requests were not answered 200`);
}

async function writeKeys(file: string, keys: readonly string[]): Promise<string> {
  await fs.promises.writeFile(file, `${keys.join('\n')}\n`);
  return file;
}

/**
 * Institution keys of one developer, in sets of VOLUME_KEYS: `next` gives the file of a set not used before, one
 * per run at volume (warm-ups included) and one for the one-at-a-time measure.
 */
async function volumeSets(ctx: BenchContext, stack: Stack): Promise<{ next: () => Promise<string>; keysOf: (file: string) => string[] }> {
  const perKeyPerRun = Math.ceil((VOLUME_RPS_CEILING * ctx.opts.durationSeconds) / VOLUME_KEYS);
  const runsPerSet = Math.max(1, Math.floor((KEY_USE_SHARE * DAILY_LIMITS.institution) / perKeyPerRun));
  const runsNeeded = LIGHT_KEY_COUNTS.length * MANY_CLIENTS_CONNECTIONS.length * (ctx.opts.runs + 1) + 1;
  const sets = Math.ceil(runsNeeded / runsPerSet);
  const email = 'bench-volume@bench.invalid';
  console.log(`==> many clients: registering ${n0(sets * VOLUME_KEYS)} keys at volume (${sets} set(s) of ${VOLUME_KEYS})`);
  const keys = await registerKeys(stack, email, sets * VOLUME_KEYS);
  fs.appendFileSync(ctx.log, `ops set-plan:\n${await raiseToInstitution(stack, ctx.subject.root, email, keys[0])}\n`);
  const files = new Map<string, string[]>();
  let used = 0;
  return {
    next: async () => {
      const set = Math.floor(used++ / runsPerSet) % sets;
      const slice = keys.slice(set * VOLUME_KEYS, (set + 1) * VOLUME_KEYS);
      const file = await writeKeys(path.join(ctx.dir, `volume-${set}.txt`), slice);
      files.set(file, slice);
      return file;
    },
    keysOf: (file) => files.get(file) ?? [],
  };
}

/** Runs each mix: per light key count and connection count, a warm-up, then `runs` pairs of volume and light. */
async function runMixes(ctx: BenchContext, stack: Stack, nextVolume: () => Promise<string>): Promise<MixResult[]> {
  const { opts } = ctx;
  const wrk = (connections: number, seconds: number): WrkOptions => ({ threads: opts.threads, connections, seconds, log: ctx.log, prefix: ctx.client.prefix });
  const metering = meteringPids(stack);
  const timed = async (keysFile: string, options: WrkOptions): Promise<MixRun> => {
    const before = cpuSecondsOf(metering);
    const r = await runWrk({ base: stack.base, path: PATH, apiKeys: '', keysFile }, options);
    return { ...r, meteringCpuMsPer1000: r.requests > 0 ? (1e6 * (cpuSecondsOf(metering) - before)) / r.requests : Number.NaN };
  };
  const results: MixResult[] = [];
  for (const count of LIGHT_KEY_COUNTS) {
    // A set of light keys serves as many runs as keep each key within KEY_USE_SHARE of its day.
    const perKeyPerRun = Math.ceil((LIGHT_RPS_CEILING * opts.durationSeconds) / count);
    const runsPerSet = Math.max(1, Math.floor((KEY_USE_SHARE * DAILY_LIMITS.free) / perKeyPerRun));
    const runsNeeded = MANY_CLIENTS_CONNECTIONS.length * (opts.runs + 1);
    const sets = Math.ceil(runsNeeded / runsPerSet);
    console.log(`==> many clients: registering ${n0(sets * count)} light keys (${sets} set(s) of ${n0(count)})`);
    const keys = await registerKeys(stack, `bench-light-${count}@bench.invalid`, sets * count);
    // Each key used once first, as through a day of traffic: the runs measure the keys' steady state, not the
    // metering round trip of each one's first request (the metering rows below measure that rate).
    await prime(stack, keys);
    let used = 0;
    const nextSet = async () => {
      const set = Math.floor(used++ / runsPerSet);
      return writeKeys(path.join(ctx.dir, `light-${count}-${set}.txt`), keys.slice(set * count, (set + 1) * count));
    };
    for (const connections of MANY_CLIENTS_CONNECTIONS) {
      console.log(`==> many clients: ${n0(count)} light keys against ${VOLUME_KEYS} at volume, ${connections} connections`);
      const warm = wrk(connections, Math.min(WARMUP_SECONDS, opts.durationSeconds));
      await runWrk({ base: stack.base, path: PATH, apiKeys: '', keysFile: await nextVolume() }, warm);
      await runWrk({ base: stack.base, path: PATH, apiKeys: '', keysFile: await nextSet() }, warm);
      const volume: MixRun[] = [];
      const light: MixRun[] = [];
      for (let run = 0; run < opts.runs; run++) {
        volume.push(await timed(await nextVolume(), wrk(connections, opts.durationSeconds)));
        light.push(await timed(await nextSet(), wrk(connections, opts.durationSeconds)));
        const [v, l] = [volume[run], light[run]];
        console.log(`    run ${run + 1}: volume ${n0(v.rps)} req/s p99 ${f2(v.p99Ms)} ms; light ${n0(l.rps)} req/s p99 ${f2(l.p99Ms)} ms` +
          `${l.non2xx + l.socketErrors ? ` (${l.non2xx} non-2xx, ${l.socketErrors} socket errors)` : ''}`);
      }
      const m = (runs: MixRun[], pick: (r: MixRun) => number) => median(runs.map(pick));
      results.push({
        lightKeys: count,
        connections,
        volume,
        light,
        median: {
          volumeRps: m(volume, (r) => r.rps),
          lightRps: m(light, (r) => r.rps),
          ratio: m(light, (r) => r.rps) / m(volume, (r) => r.rps),
          lightP50Ms: m(light, (r) => r.p50Ms),
          lightP99Ms: m(light, (r) => r.p99Ms),
          volumeP99Ms: m(volume, (r) => r.p99Ms),
          lightMeteringMs: m(light, (r) => r.meteringCpuMsPer1000),
          volumeMeteringMs: m(volume, (r) => r.meteringCpuMsPer1000),
        },
        failures: [...light, ...volume].reduce((n, r) => n + r.non2xx + r.socketErrors, 0),
      });
    }
  }
  return results;
}

/** The subject's metering service alone (its dist/ bundle, `processes` of it) on a nats-server of its own. */
async function meteringScale(ctx: BenchContext, processes: number): Promise<MeteringScale> {
  const subjects = await subjectModule<{ SHARD_COUNT?: number }>(ctx.subject.root, 'services/shared/metering-protocol/subjects.ts');
  if (processes > 1 && subjects.SHARD_COUNT === undefined) return { processes };
  console.log(`==> many clients: metering admissions with ${processes} metering process(es)`);
  const natsPort = await freePort();
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  const natsLog = path.join(ctx.dir, `admissions-nats-${processes}.log`);
  const nats = startChild('nats-server', ['-a', '127.0.0.1', '-p', String(natsPort)], { log: natsLog });
  const dataDir = path.join(ctx.dir, `admissions-data-${processes}`);
  const children = [];
  try {
    await waitForLog(natsLog, 'Server is ready', nats, READY_TIMEOUT_MS);
    for (let i = 0; i < processes; i++) {
      const log = path.join(ctx.dir, `admissions-metering-${processes}-${i}.log`);
      const env = { ...process.env, NODE_ENV: 'production', NATS_URL: natsUrl, DATA_DIR: dataDir, METRICS_PORT: '0', METERING_PROCESSES: String(processes), NODE_APP_INSTANCE: String(i) };
      const child = startChild(process.execPath, [path.join(ctx.subject.root, 'dist/metering.mjs')], { cwd: ctx.subject.root, env, log });
      children.push(child);
      await waitForLog(log, '"listening"', child, READY_TIMEOUT_MS);
    }
    const pids = children.map((c) => c.pid ?? 0).join(',');
    const seconds = String(Math.max(3, Math.min(10, ctx.opts.durationSeconds)));
    const admissions = await runBenchScript<MeteringAdmissions>('metering-admissions.ts', ['--root', ctx.subject.root, '--nats', natsUrl, '--pids', pids, '--seconds', seconds]);
    console.log(`    ${n0(admissions.perSecond)} admissions/s (${admissions.kind}), ${f1(admissions.cpuMicros)} µs of metering CPU each`);
    return { processes, admissions };
  } finally {
    for (const child of children) await stopChild(child);
    await stopChild(nats);
  }
}

async function run(ctx: BenchContext): Promise<ManyClientsResult> {
  const real = await ctx.realSnapshot();
  const stack = await startStack({
    root: ctx.subject.root,
    httpPort: await freePort(),
    natsPort: await freePort(),
    dataDir: path.join(ctx.dir, 'many-clients-data'),
    pm2Home: path.join(ctx.dir, 'many-clients-pm2'),
    apiWorkers: ctx.opts.apiWorkers,
    snapshotPath: real.path,
  });
  let mixes: MixResult[];
  let oneAtATime: OneAtATime[];
  try {
    const volume = await volumeSets(ctx, stack);
    mixes = await runMixes(ctx, stack, volume.next);
    const fresh = await registerKeys(stack, 'bench-one-at-a-time@bench.invalid', 2);
    const volumeFile = await volume.next();
    oneAtATime = await measureOneAtATime(ctx, stack, { light: fresh, volume: volume.keysOf(volumeFile), volumeFile, path: PATH });
  } finally {
    stack.stop();
  }
  const metering: MeteringScale[] = [];
  for (const processes of [1, 2]) metering.push(await meteringScale(ctx, processes));
  return { mixes, oneAtATime, metering };
}

/** The --compare ref's figures from the same harness, beside the working tree's: the baseline. */
function baseline(r: ManyClientsResult, run: BenchResults): string {
  const other = run.subjects[1];
  const b = other?.sections['many-clients'];
  if (b === undefined) return '';
  const rows = r.mixes.map((x) => {
    const y = b.mixes.find((m) => m.lightKeys === x.lightKeys && m.connections === x.connections);
    return [n0(x.lightKeys), x.connections, f2(x.median.ratio), y ? f2(y.median.ratio) : '-', f2(x.median.lightP99Ms), y ? f2(y.median.lightP99Ms) : '-'];
  });
  const seq = r.oneAtATime.map((s) => [s.mode, f2(s.addedP50Ms), f2(b.oneAtATime.find((o) => o.mode === s.mode)?.addedP50Ms ?? Number.NaN)]);
  return `
Against the baseline, ${other.subject.name} (${other.subject.commit}), measured by the same harness in the same run:

${table(['light keys', 'connections', 'light / volume', 'baseline', 'light p99', 'baseline'], rows)}

${table(['one at a time', 'added p50', 'baseline'], seq)}
`;
}

function render(r: ManyClientsResult, _sections: SectionResults, run: BenchResults): string {
  const mixRows = r.mixes.map((x) => [
    n0(x.lightKeys), x.connections, n0(x.median.volumeRps), n0(x.median.lightRps), `**${f2(x.median.ratio)}**`, f2(x.median.lightP50Ms),
    `**${f2(x.median.lightP99Ms)}**`, f2(x.median.volumeP99Ms), f2(x.median.lightMeteringMs), f2(x.median.volumeMeteringMs), x.failures,
  ]);
  const runs = r.mixes.map((x) => [`${n0(x.lightKeys)} keys, ${x.connections} conn.`, x.volume.map((v) => n0(v.rps)).join(' / '), x.light.map((l) => n0(l.rps)).join(' / '), x.light.map((l) => f2(l.p99Ms)).join(' / ')]);
  const seqRows = r.oneAtATime.map((s) => [s.mode, n0(s.requests), f2(s.lightP50Ms), f2(s.volumeP50Ms), `**${f2(s.addedP50Ms)}**`, f2(s.lightP99Ms)]);
  const meterRows = r.metering.map((m) =>
    m.admissions ? [m.processes, m.admissions.kind, n0(m.admissions.perSecond), f1(m.admissions.cpuMicros)] : [m.processes, '-', 'not supported by this code', '-']);
  return `## Many clients

The stack as in the HTTP section (${'`'}GET ${PATH}${'`'}). Light keys: free keys registered over many loopback
addresses, each used once before the runs (as through a day of traffic), each request with the next key
(\`scripts/bench/wrk/keys.lua\`); at volume: ${VOLUME_KEYS} institution keys the same way. Medians of alternating pairs (volume, then light); latencies in ms; metering CPU in ms per
1,000 requests (all metering processes).

${table(['light keys', 'connections', 'volume req/s', 'light req/s', 'light / volume', 'light p50', 'light p99', 'volume p99', 'metering CPU, light', 'metering CPU, volume', 'non-2xx'], mixRows)}

Every run (req/s at volume; req/s and p99 of the light keys):

${table(['mix', 'volume', 'light', 'light p99'], runs)}

One request at a time, alternating a fresh light key and a key at volume (kept there by wrk on 2 connections
meanwhile); the added p50 is the light key's over the key at volume's:

${table(['client', 'requests each', 'light p50', 'volume p50', 'added p50', 'light p99'], seqRows)}

The metering service alone (\`scripts/bench/metering-admissions.ts\`): 64 admissions in flight over 200 keys, each
a block granted to a new holder (or, for code that counts requests one at a time, that count):

${table(['metering processes', 'admission', 'admissions/s', 'metering CPU µs each'], meterRows)}
${baseline(r, run)}`;
}

function figures(r: ManyClientsResult): Figure[] {
  return [
    ...r.mixes.flatMap((x): Figure[] => [
      { name: `many clients, ${x.lightKeys} keys, ${x.connections} conn.: light / volume`, value: x.median.ratio, unit: '', better: 'higher' },
      { name: `many clients, ${x.lightKeys} keys, ${x.connections} conn.: light req/s`, value: x.median.lightRps, unit: 'req/s', better: 'higher' },
      { name: `many clients, ${x.lightKeys} keys, ${x.connections} conn.: light p99`, value: x.median.lightP99Ms, unit: 'ms', better: 'lower' },
      { name: `many clients, ${x.lightKeys} keys, ${x.connections} conn.: metering CPU per 1,000 light`, value: x.median.lightMeteringMs, unit: 'ms', better: 'lower' },
    ]),
    ...r.oneAtATime.map((s): Figure => ({ name: `one at a time, ${s.mode}: added p50`, value: s.addedP50Ms, unit: 'ms', better: 'lower' })),
    ...r.metering.flatMap((m): Figure[] => (m.admissions ? [{ name: `metering, ${m.processes} process(es): admissions/s`, value: m.admissions.perSecond, unit: '/s', better: 'higher' }] : [])),
  ];
}

export const manyClientsSection: Section<'many-clients'> = { id: 'many-clients', run, render, figures };
