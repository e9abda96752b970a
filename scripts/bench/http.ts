// Section "http": the stack as production runs it (the subject's bundles under pm2, real NATS, two API
// workers) against raw uWebSockets.js answering the same requests with the bytes the stack sent, under wrk,
// endpoint by endpoint; then the API workers' memory.
import fs from 'node:fs';
import path from 'node:path';

import { DAILY_LIMITS } from '../../services/shared/plans.ts';
import { captureRoutes } from './capture.ts';
import type { BenchContext, BenchResults, Figure, Section, SectionResults } from './context.ts';
import { raiseToInstitution, registerKeys } from './keys.ts';
import { f1, f2, n0, table } from './markdown.ts';
import { cpuSecondsOf, processMemory } from './proc-stats.ts';
import type { ProcessMemory } from './proc-stats.ts';
import { freePort } from './processes.ts';
import { startRawServers } from './raw-servers.ts';
import type { RawServers } from './raw-servers.ts';
import { scenarios } from './scenarios.ts';
import { alternatedBareRate, runBareLoop } from './search.ts';
import type { Scenario, ScenarioId } from './scenarios.ts';
import { restarts, startStack, workerPids } from './stack.ts';
import type { Stack } from './stack.ts';
import { median, microsPerRequest } from './stats.ts';
import { runWrk } from './wrk.ts';
import type { WrkOptions, WrkResult, WrkTarget } from './wrk.ts';
import type { LoopResult } from './search-loop.ts';

/** One wrk run, with the CPU the servers loaded (the API workers, or the raw servers) spent per request. */
export interface RunFigures extends WrkResult {
  cpuMicros: number;
}

export interface ScenarioResult {
  id: ScenarioId;
  title: string;
  path: string;
  raw: RunFigures[];
  stack: RunFigures[];
  /** Medians of the runs. */
  median: {
    rawRps: number;
    stackRps: number;
    ratio: number;
    stackP50Ms: number;
    stackP99Ms: number;
    rawP99Ms: number;
    stackMicros: number;
    rawMicros: number;
  };
  /** Non-2xx responses and socket errors over the stack runs. */
  failures: number;
  /**
   * The search mix only: the bare loop over the same queries, one run after each stack run. The target's ratio
   * sets the stack against their median (alternatedBareRate): this machine's speed drifts over a bench's
   * minutes, and a bare loop timed in alternation with the stack meets the same drift.
   */
  bare?: LoopResult[];
}

export interface HttpResult {
  mix: { count: number; byKind: Record<string, number>; withLanguage: number; rawPool: number };
  scenarios: ScenarioResult[];
  /** The API workers after the runs. */
  workers: ProcessMemory[];
  restarts: Record<string, number>;
}

/** The rate the keys of a run are sized for, and the share of a key's daily allowance a run may use. */
const KEYED_RPS_CEILING = 200_000;
const KEY_USE_SHARE = 0.8;
const WARMUP_SECONDS = 3;
const BENCH_EMAIL = 'bench@bench.invalid';

interface Loaded {
  stack: Stack;
  raw: RawServers;
  wrk: WrkOptions;
  warmupSeconds: number;
  runs: number;
  mixFile: string;
  mixLength: number;
  /** One run of the bare loop over the mix (search-loop.ts), in a process of its own. */
  bareLoop(): Promise<LoopResult>;
  /** The keys of a (scenario, run) for wrk: a fresh set each, so that no run meets a daily quota. */
  keysFor(id: ScenarioId, run: number): string;
}

async function measure(l: Loaded, scenario: Scenario): Promise<ScenarioResult> {
  const isMix = scenario.path === undefined;
  // The raw servers get the stack's keys too (they ignore them), so that wrk sends both the same bytes.
  const target = (base: string, run: number): WrkTarget => ({
    base,
    apiKeys: l.keysFor(scenario.id, run),
    ...(isMix ? { pathsFile: l.mixFile, offset: Math.floor((run * l.mixLength) / (l.runs + 1)) } : { path: scenario.path }),
  });
  const timed = async (base: string, pids: () => readonly number[], run: number): Promise<RunFigures> => {
    const before = cpuSecondsOf(pids());
    const r = await runWrk(target(base, run), l.wrk);
    return { ...r, cpuMicros: microsPerRequest(cpuSecondsOf(pids()) - before, r.requests) };
  };
  console.log(`==> ${scenario.title} (${isMix ? `${l.mixLength} distinct queries` : scenario.path})`);
  const warm = { ...l.wrk, seconds: l.warmupSeconds };
  await runWrk(target(l.raw.base, l.runs), warm);
  await runWrk(target(l.stack.base, l.runs), warm);
  const raw: RunFigures[] = [];
  const stack: RunFigures[] = [];
  const bare: LoopResult[] = [];
  const workers = workerPids(l.stack);
  for (let run = 0; run < l.runs; run++) {
    raw.push(await timed(l.raw.base, () => l.raw.pids, run));
    stack.push(await timed(l.stack.base, () => workers, run));
    if (isMix) bare.push(await l.bareLoop());
    const [r, s] = [raw[run], stack[run]];
    console.log(`    run ${run + 1}: raw ${n0(r.rps)} req/s p99 ${f2(r.p99Ms)} ms; stack ${n0(s.rps)} req/s p99 ${f2(s.p99Ms)} ms` +
      `${s.non2xx + s.socketErrors ? ` (${s.non2xx} non-2xx, ${s.socketErrors} socket errors)` : ''}` +
      `${isMix ? `; bare loop ${n0(bare[run].perSecond)} searches/s` : ''}`);
  }
  const m = (runs: RunFigures[], pick: (r: RunFigures) => number) => median(runs.map(pick));
  return {
    ...(isMix ? { bare } : {}),
    id: scenario.id,
    title: scenario.title,
    path: scenario.path ?? `${n0(l.mixLength)} distinct queries`,
    raw,
    stack,
    median: {
      rawRps: m(raw, (r) => r.rps),
      stackRps: m(stack, (r) => r.rps),
      ratio: m(stack, (r) => r.rps) / m(raw, (r) => r.rps),
      stackP50Ms: m(stack, (r) => r.p50Ms),
      stackP99Ms: m(stack, (r) => r.p99Ms),
      rawP99Ms: m(raw, (r) => r.p99Ms),
      stackMicros: m(stack, (r) => r.cpuMicros),
      rawMicros: m(raw, (r) => r.cpuMicros),
    },
    failures: stack.reduce((n, s) => n + s.non2xx + s.socketErrors, 0),
  };
}

async function run(ctx: BenchContext): Promise<HttpResult> {
  const { opts } = ctx;
  const real = await ctx.realSnapshot();
  const w = await ctx.workload();
  const list = scenarios(w).filter((s) => !opts.endpoints || opts.endpoints.includes(s.id));
  if (list.length === 0) throw new Error(`--endpoints ${opts.endpoints?.join(',')}: no such endpoint`);
  const stack = await startStack({
    root: ctx.subject.root,
    httpPort: await freePort(),
    natsPort: await freePort(),
    dataDir: path.join(ctx.dir, 'data'),
    pm2Home: path.join(ctx.dir, 'pm2'),
    apiWorkers: opts.apiWorkers,
    snapshotPath: real.path,
  });
  try {
    // Keys per wrk thread and run: enough that a run at KEYED_RPS_CEILING stays within KEY_USE_SHARE of each
    // key's daily allowance. Every machine gets as many, so that wrk sends the same way everywhere.
    const keysPerThread = Math.ceil((KEYED_RPS_CEILING * opts.durationSeconds) / opts.threads / (KEY_USE_SHARE * DAILY_LIMITS.institution));
    const keysPerRun = opts.threads * keysPerThread;
    const keysPerScenario = (opts.runs + 1) * keysPerRun;
    console.log(`==> registering ${list.length * keysPerScenario + 1} keys, raised to the institution plan with the ops CLI`);
    const keys = await registerKeys(stack, BENCH_EMAIL, list.length * keysPerScenario + 1);
    const probeKey = keys[keys.length - 1];
    fs.appendFileSync(ctx.log, `ops set-plan:\n${await raiseToInstitution(stack, ctx.subject.root, BENCH_EMAIL, probeKey)}\n`);
    const keysFor = (id: ScenarioId, run: number) => {
      const start = list.findIndex((s) => s.id === id) * keysPerScenario + run * keysPerRun;
      const runKeys = keys.slice(start, start + keysPerRun);
      return Array.from({ length: opts.threads }, (_, t) => runKeys.slice(t * keysPerThread, (t + 1) * keysPerThread).join(',')).join(';');
    };

    console.log('==> capturing the stack\'s responses for the raw servers');
    const fixed = list.flatMap((s) => (s.path ? [s.path] : []));
    // The mix's pool only when the mix runs: --compare with a commit that serves fewer languages still measures
    // the other endpoints.
    const pools: Record<string, string[]> = list.some((s) => s.id === 'search-mix') ? { '/api/v1/words': w.holdout.map((q) => q.path) } : {};
    const { routes, failures, poolFailures } = await captureRoutes(stack.base, probeKey, fixed, pools);
    if (failures.length || poolFailures.length) throw new Error(`the stack did not answer 200 to:\n${[...failures, ...poolFailures].slice(0, 10).join('\n')}`);
    const routesFile = path.join(ctx.dir, 'raw-routes.json');
    fs.writeFileSync(routesFile, JSON.stringify(routes));
    const raw = await startRawServers({ count: opts.apiWorkers, port: await freePort(), routesFile, log: path.join(ctx.dir, 'raw-server.log') });
    const results: ScenarioResult[] = [];
    try {
      const loaded: Loaded = {
        stack,
        raw,
        wrk: { threads: opts.threads, connections: opts.connections, seconds: opts.durationSeconds, log: ctx.log, prefix: ctx.client.prefix },
        warmupSeconds: Math.min(WARMUP_SECONDS, opts.durationSeconds),
        runs: opts.runs,
        mixFile: w.mixFile,
        mixLength: w.mix.length,
        bareLoop: () => runBareLoop(ctx),
        keysFor,
      };
      for (const scenario of list) results.push(await measure(loaded, scenario));
    } finally {
      await raw.stop();
    }
    const workers = workerPids(stack).map(processMemory);
    for (const m of workers) console.log(`    API worker ${m.pid}: ${f1(m.rssMb)} MB resident, peak ${f1(m.peakRssMb)} MB`);
    return {
      mix: { count: w.mix.length, byKind: w.byKind, withLanguage: w.withLanguage, rawPool: w.holdout.length },
      scenarios: results,
      workers,
      restarts: restarts(stack),
    };
  } finally {
    stack.stop();
  }
}

function render(r: HttpResult, _sections: SectionResults, run: BenchResults): string {
  const o = run.options;
  const rows = r.scenarios.map((s) => [
    s.title, s.path.startsWith('/') ? `\`${decodeURIComponent(s.path)}\`` : s.path, n0(s.median.rawRps), n0(s.median.stackRps), `**${f2(s.median.ratio)}**`,
    f2(s.median.stackP50Ms), `**${f2(s.median.stackP99Ms)}**`, f2(s.median.rawP99Ms), f1(s.median.stackMicros), f1(s.median.rawMicros), s.failures,
  ]);
  const runs = r.scenarios.map((s) => [s.title, s.raw.map((x) => n0(x.rps)).join(' / '), s.stack.map((x) => n0(x.rps)).join(' / '), s.stack.map((x) => f2(x.p99Ms)).join(' / ')]);
  const restarted = Object.entries(r.restarts).filter(([, n]) => n > 0);
  return `## HTTP: the stack against raw uWS

Medians of ${o.runs} runs at ${o.connections} connections; latencies in ms; CPU in µs per request (the
${o.apiWorkers} API workers' for the stack, the ${o.apiWorkers} raw servers' for raw uWS).

${table(['endpoint', 'path', 'raw req/s', 'stack req/s', 'ratio', 'stack p50', 'stack p99', 'raw p99', 'stack CPU', 'raw CPU', 'non-2xx'], rows)}

Every run (req/s of raw uWS; req/s and p99 of the stack):

${table(['endpoint', 'raw', 'stack', 'stack p99'], runs)}

The search mix: ${r.mix.count.toLocaleString('en')} distinct paths (${Object.entries(r.mix.byKind).map(([k, v]) => `${k} ${v}`).join(', ')}; ${r.mix.withLanguage} with a language);
raw uWS replays the bodies of ${r.mix.rawPool} other queries.

API workers after the runs: ${r.workers.map((m) => `${f1(m.rssMb)} MB resident (peak ${f1(m.peakRssMb)})`).join(', ')}.
pm2 restarts during the runs: ${restarted.length ? restarted.map(([k, v]) => `${k} ${v}`).join(', ') : 'none'}.
`;
}

function bareFigures(s: ScenarioResult): Figure[] {
  const bare = alternatedBareRate(s);
  if (bare === undefined) return [];
  return [
    { name: `${s.title}: bare loop in alternation, searches/s`, value: bare, unit: '/s', better: 'higher' },
    { name: `${s.title}: against the bare loop in alternation`, value: s.median.stackRps / bare, unit: '', better: 'higher' },
  ];
}

function figures(r: HttpResult): Figure[] {
  return [
    ...r.scenarios.flatMap((s): Figure[] => [
      { name: `${s.title}: req/s`, value: s.median.stackRps, unit: 'req/s', better: 'higher' },
      { name: `${s.title}: ratio to raw uWS`, value: s.median.ratio, unit: '', better: 'higher' },
      { name: `${s.title}: p99`, value: s.median.stackP99Ms, unit: 'ms', better: 'lower' },
      { name: `${s.title}: workers' CPU per request`, value: s.median.stackMicros, unit: 'µs', better: 'lower' },
      ...bareFigures(s),
    ]),
    { name: 'API workers: largest resident size after the runs', value: Math.max(...r.workers.map((m) => m.rssMb)), unit: 'MB', better: 'lower' },
  ];
}

export const httpSection: Section<'http'> = { id: 'http', run, render, figures };
