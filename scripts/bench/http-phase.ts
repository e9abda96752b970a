// The HTTP phase of the bench: the real snapshot, the query mix, the stack and the raw ceiling under wrk, the
// bare-loop search baseline and, if asked, a profile of the workers.
import fs from 'node:fs';
import path from 'node:path';

import { openSnapshot } from '../../services/api/snapshot/reader.ts';
import { DAILY_LIMITS } from '../../services/shared/plans.ts';
import { freePort } from '../../test/support/nats.ts';
import type { BenchOptions } from './args.ts';
import { captureRoutes } from './capture.ts';
import { runHttpBench } from './http-bench.ts';
import { raiseToInstitution, registerKeys } from './keys.ts';
import { busyness } from './machine.ts';
import { processMemory } from './proc-stats.ts';
import { ROOT, TSX, runAsync, runBenchScript } from './processes.ts';
import { runProfile } from './profile.ts';
import { startRawServers } from './raw-servers.ts';
import { buildQueryMix, mulberry32, sampleEntries, shuffle, toSearchQuery } from './query-mix.ts';
import type { MixQuery } from './query-mix.ts';
import type { BenchResults } from './results.ts';
import { scenarios } from './scenarios.ts';
import type { ScenarioId } from './scenarios.ts';
import type { LimitTiming } from './bound-limit.ts';
import type { KeyFilterTiming } from './key-filters.ts';
import type { ParseGcRow } from './query-parse-gc.ts';
import type { LoopResult } from './search-loop.ts';
import { restarts, startStack } from './stack.ts';

/** Search bodies the raw server replays for the mix: held out of the mix so the stack's cache stays cold. */
const RAW_POOL_SIZE = 300;
/** Rate the keys of a run are sized for, and the share of a key's daily allowance a run may use. */
const KEYED_RPS_CEILING = 200_000;
const KEY_USE_SHARE = 0.8;
const WARMUP_SECONDS = 3;
const BENCH_EMAIL = 'bench@bench.invalid';

interface Prepared {
  snapshotPath: string;
  mix: MixQuery[];
  holdout: MixQuery[];
  repeatedSearch: string;
  entryId: string;
  entrySlug: string;
}

async function buildSnapshot(opts: BenchOptions, dataDir: string, log: string): Promise<string> {
  console.log('==> building the real snapshot (scripts/publish-snapshot.ts) into the bench DATA_DIR');
  const args = [...TSX, 'scripts/publish-snapshot.ts', '--no-reload', ...(opts.corpora ? ['--corpora', opts.corpora] : [])];
  const { code, stdout, stderr } = await runAsync(process.execPath, args, { env: { ...process.env, DATA_DIR: dataDir }, cwd: ROOT, log });
  if (code !== 0) throw new Error(`snapshot build failed:\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`);
  return path.join(dataDir, 'snapshots', 'current.sqlite');
}

function prepareQueries(snapshotPath: string, count: number, results: BenchResults): Prepared {
  const snapshot = openSnapshot(snapshotPath);
  try {
    const entries = sampleEntries(snapshot, Number.MAX_SAFE_INTEGER);
    const all = shuffle(buildQueryMix(entries, count + RAW_POOL_SIZE), mulberry32(3));
    const holdout = all.slice(0, RAW_POOL_SIZE);
    const mix = all.slice(RAW_POOL_SIZE);
    if (mix.length < 2000) throw new Error(`only ${mix.length} distinct queries could be drawn from the snapshot`);
    const byKind: Record<string, number> = {};
    for (const q of mix) byKind[q.kind] = (byKind[q.kind] ?? 0) + 1;
    // A common kind of query in the common script: a folded Latin-script word with a language.
    const latin = (q: MixQuery) => /^[\p{Script=Latin} -]+$/u.test(toSearchQuery(q.path).q ?? '');
    const repeated = holdout.find((q) => q.kind === 'folded' && q.path.includes('language=') && latin(q)) ?? holdout[0];
    // A real, ordinary entry: the first result of the repeated query.
    const first = snapshot.search({ ...toSearchQuery(repeated.path), limit: 1 }).items[0]
      ?? entries[Math.floor(entries.length / 2)];
    results.snapshot = {
      version: snapshot.meta.version,
      entries: snapshot.languages().reduce((n, l) => n + l.wordCount, 0),
      sizeMb: fs.statSync(snapshotPath).size / 1024 ** 2,
    };
    results.queryMix = {
      count: mix.length,
      byKind,
      withLanguage: mix.filter((q) => q.path.includes('language=')).length,
      examples: mix.slice(0, 8).map((q) => `${q.kind}: ${decodeURIComponent(q.path)}`),
      rawPool: holdout.length,
    };
    return {
      snapshotPath,
      mix,
      holdout,
      repeatedSearch: repeated.path,
      entryId: `/api/v1/words/${first.id}`,
      entrySlug: `/api/v1/words/${encodeURIComponent(first.slug)}`,
    };
  } finally {
    snapshot.close();
  }
}

async function bareLoop(prepared: Prepared, mixJson: string, seconds: number): Promise<LoopResult> {
  console.log(`==> bare-loop search: one process, reader.search over the same ${prepared.mix.length} queries, ${seconds} s`);
  const { loop } = await runBenchScript<{ loop: LoopResult }>('search-loop.ts', ['--snapshot', prepared.snapshotPath, '--queries', mixJson, '--seconds', String(seconds)]);
  console.log(`    ${Math.round(loop.perSecond)} searches/s, p50 ${loop.p50Ms.toFixed(3)} ms, p99 ${loop.p99Ms.toFixed(3)} ms`);
  return loop;
}

async function limitTimings(snapshotPath: string): Promise<LimitTiming[]> {
  console.log('==> the reader\'s statements with a bound LIMIT and with the LIMIT in the SQL');
  return (await runBenchScript<{ rows: LimitTiming[] }>('bound-limit.ts', ['--snapshot', snapshotPath])).rows;
}

async function keyFilterTimings(snapshotPath: string, mixJson: string): Promise<KeyFilterTiming[]> {
  console.log('==> the reader with its key filters and without, alternating passes over the mix');
  const { rows } = await runBenchScript<{ rows: KeyFilterTiming[] }>('key-filters.ts', ['--snapshot', snapshotPath, '--queries', mixJson]);
  for (const r of rows) {
    console.log(`    ${r.variant}: ${r.usPerSearch.toFixed(2)} µs per search (${r.minUs.toFixed(2)}-${r.maxUs.toFixed(2)}), opened in ${r.openMs.toFixed(0)} ms, ` +
      `${r.statementsPerSearch?.toFixed(2)} statements per search, ${r.emptyPerSearch?.toFixed(2)} finding nothing`);
  }
  return rows;
}

async function parseGc(mixJson: string): Promise<ParseGcRow[]> {
  console.log('==> query parsing and the garbage collector: z.preprocess against text read before zod');
  // The young generation as the API workers have it (ecosystem.config.cjs node_args).
  return (await runBenchScript<{ rows: ParseGcRow[] }>('query-parse-gc.ts', ['--queries', mixJson], ['--max-semi-space-size=4'])).rows;
}

export async function httpPhase(opts: BenchOptions, tmp: string, results: BenchResults): Promise<void> {
  const logDir = path.join(tmp, 'logs');
  const dataDir = path.join(tmp, 'data');
  const log = path.join(logDir, 'bench.log');
  const snapshotPath = await buildSnapshot(opts, dataDir, log);
  const prepared = prepareQueries(snapshotPath, opts.queries, results);
  const mixFile = path.join(tmp, 'mix.txt');
  const mixJson = path.join(tmp, 'mix.json');
  fs.writeFileSync(mixFile, `${prepared.mix.map((q) => q.path).join('\n')}\n`);
  fs.writeFileSync(mixJson, JSON.stringify(prepared.mix));

  const ports = { http: await freePort(), nats: await freePort(), natsMonitor: await freePort() };
  const rawPort = await freePort();
  console.log(`==> starting the stack under pm2 (PM2_HOME=${path.join(tmp, 'pm2')}, port ${ports.http}, nats ${ports.nats}, ${opts.apiWorkers} API workers)`);
  const stack = await startStack({
    ports,
    dataDir,
    tmp,
    apiWorkers: opts.apiWorkers,
    ...(opts.experiment
      ? { ecosystem: path.join(import.meta.dirname, 'experiment.config.cjs'), extraEnv: { BENCH_EXPERIMENT: opts.experiment } }
      : {}),
  });
  try {
    const list = scenarios(prepared).filter((s) => !opts.endpoints || opts.endpoints.includes(s.id));
    if (list.length === 0) throw new Error(`--endpoints ${opts.endpoints?.join(',')}: no such endpoint`);
    // Keys per wrk thread and run: at this machine's 100-150k req/s a 10 s run would use up an institution
    // key's daily allowance for the endpoint with one key per thread. Every run gets as many, however fast
    // the machine, so that wrk sends the same way everywhere.
    const keysPerThread = Math.ceil((KEYED_RPS_CEILING * opts.durationSeconds) / opts.threads / (KEY_USE_SHARE * DAILY_LIMITS.institution));
    const keysPerRun = opts.threads * keysPerThread;
    const keysPerScenario = (opts.runs + 1) * keysPerRun;
    console.log(`==> registering ${list.length * keysPerScenario + 1} keys through POST /api/v1/developers, institution plan via the ops CLI`);
    const keys = await registerKeys(stack, BENCH_EMAIL, list.length * keysPerScenario + 1);
    const captureKey = keys[keys.length - 1];
    const opsOut = await raiseToInstitution(stack, BENCH_EMAIL, captureKey);
    fs.appendFileSync(log, `ops set-plan:\n${opsOut}\n`);
    /** The run's keys, one group per wrk thread (";" between groups, "," inside: wrk/common.lua). */
    const keyFor = (id: ScenarioId, run: number) => {
      const start = list.findIndex((s) => s.id === id) * keysPerScenario + run * keysPerRun;
      const runKeys = keys.slice(start, start + keysPerRun);
      return Array.from({ length: opts.threads }, (_, t) => runKeys.slice(t * keysPerThread, (t + 1) * keysPerThread).join(',')).join(';');
    };

    console.log('==> capturing the stack\'s responses for the raw ceiling server');
    const fixed = list.flatMap((s) => (s.path ? [s.path] : []));
    const { routes, failures, poolFailures } = await captureRoutes(stack.base, captureKey, fixed, { '/api/v1/words': prepared.holdout.map((q) => q.path) });
    if (failures.length) throw new Error(`the stack did not answer 200 to:\n${failures.join('\n')}`);
    if (poolFailures.length) {
      results.errors.push(`${poolFailures.length} of ${prepared.holdout.length} held-out search queries did not answer 200:\n${poolFailures.slice(0, 10).join('\n')}`);
    }
    const routesFile = path.join(tmp, 'raw-routes.json');
    fs.writeFileSync(routesFile, JSON.stringify(routes));
    const rawLog = path.join(logDir, 'raw-server.log');
    const rawServers = (port: number, cpuMicros: number) =>
      startRawServers({ count: opts.apiWorkers, port, routesFile, cpuMicros, log: rawLog });
    const raw = await rawServers(rawPort, 0);
    const matchedPort = await freePort();

    results.busy.push(busyness());
    results.http = await runHttpBench({
      stack,
      raw,
      startMatched: (cpuMicros) => rawServers(matchedPort, cpuMicros),
      scenarios: list,
      mixFile,
      mixLength: prepared.mix.length,
      runs: opts.runs,
      wrk: { threads: opts.threads, connections: opts.connections, seconds: opts.durationSeconds, loadClass: opts.loadClass, acceptEncoding: opts.acceptEncoding },
      warmupSeconds: Math.min(WARMUP_SECONDS, opts.durationSeconds),
      keyFor,
      log,
    });
    results.busy.push(busyness());
    results.memory = processMemory(stack);
    results.restarts = restarts(stack);
    for (const m of results.memory) {
      console.log(`    ${m.name} (pid ${m.pid}): RSS ${m.rssMb.toFixed(1)} MB (private ${m.anonMb.toFixed(1)}, files ${m.fileMb.toFixed(1)}), peak ${m.peakRssMb.toFixed(1)} MB`);
    }
    await raw.stop();
  } finally {
    await stack.stop();
  }
  results.bareLoop = await bareLoop(prepared, mixJson, opts.durationSeconds);
  results.limitTimings = await limitTimings(prepared.snapshotPath);
  results.keyFilters = await keyFilterTimings(prepared.snapshotPath, mixJson);
  results.parseGc = await parseGc(mixJson);

  if (opts.profile) {
    try {
      results.profile = await runProfile({ opts, tmp, dataDir, prepared: { ...prepared, mixFile }, email: BENCH_EMAIL });
    } catch (err) {
      results.errors.push(`profile: ${(err as Error).message}`);
      console.error(`bench: profiling failed: ${(err as Error).message}`);
    }
  }
}

