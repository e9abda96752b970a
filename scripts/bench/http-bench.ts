// The HTTP figures: each endpoint loaded by wrk, alternating the raw uWS ceiling, the full stack and the
// cost-matched ceiling, with the metering traffic on NATS counted around every stack run.
import type { Scenario, ScenarioId } from './scenarios.ts';
import type { NatsCounters, Stack } from './stack.ts';
import { cpuSecondsOf, stackCounters, workersCpuSeconds } from './proc-stats.ts';
import type { StackCounters } from './proc-stats.ts';
import type { RawServers } from './raw-servers.ts';
import type { HandlerTimes } from './request-log.ts';
import { handlerTimesSince, markRequestLogs } from './request-log.ts';
import { natsCounters } from './stack.ts';
import { median, microsPerRequest } from './stats.ts';
import type { WrkOptions, WrkResult } from './wrk.ts';
import { runWrk } from './wrk.ts';

export interface MeteringDelta {
  httpRequests: number;
  seconds: number;
  natsInMsgs: number;
  /** Requests the metering service answered (lease, release, ...), from its $SRV.STATS. */
  meteringRequests: Record<string, number>;
  /** CPU seconds each stack process used during the run (where the two cores went). */
  cpuSeconds: Record<string, number>;
  /** Involuntary context switches of each API worker during the run (absent from older results). */
  preemptions?: Record<string, number>;
  /** Of cpuSeconds, each API worker's seconds in the kernel during the run (absent from older results). */
  kernelSeconds?: Record<string, number>;
  /** Seconds each API worker's threads waited for a core during the run (absent before session 18). */
  waitedSeconds?: Record<string, number>;
  /** Time inside the workers per request, from their request log (absent from older results). */
  handler?: HandlerTimes;
}

/**
 * A run of the raw ceiling burning CPU until its CPU per request is what the API workers used per request in
 * the stack run just before: a server as costly as the stack's workers but with none of their variation
 * (queries of different cost, garbage collection, metering, the request log, pm2, nats-server). Its p99 is
 * what that CPU per request alone gives on this machine; the stack's p99 above it is what the rest adds.
 */
export interface MatchedRun {
  /** CPU µs per request of raw uWS and of the API workers in the pair of runs before. */
  rawMicros: number;
  workersMicros: number;
  /** CPU per request the matched servers used in this run (should come out near workersMicros). */
  measuredMicros: number;
  wrk: WrkResult;
}

export interface ScenarioResult {
  id: ScenarioId;
  title: string;
  endpoint: string;
  path: string;
  raw: WrkResult[];
  stack: WrkResult[];
  /** Absent from results written before the cost-matched ceiling existed. */
  matched?: MatchedRun[];
  metering: MeteringDelta[];
  /** Status counts of a short diagnostic run, when the stack answered anything but 2xx. */
  diagnostic?: Record<string, number>;
  median: {
    rawRps: number;
    stackRps: number;
    ratio: number;
    stackP50Ms: number;
    stackP99Ms: number;
    rawP50Ms: number;
    rawP99Ms: number;
    /** The cost-matched ceiling (absent from older results). */
    matchedRps?: number;
    matchedP50Ms?: number;
    matchedP99Ms?: number;
  };
}

export interface HttpBenchInput {
  stack: Stack;
  raw: RawServers;
  /** Starts the raw ceiling burning this many µs of CPU per request (stopped after its run). */
  startMatched(cpuMicros: number): Promise<RawServers>;
  scenarios: readonly Scenario[];
  /** Paths file of the search mix (one per line) and its length. */
  mixFile: string;
  mixLength: number;
  runs: number;
  wrk: WrkOptions;
  warmupSeconds: number;
  /** A fresh key for each (scenario, run), so that no run can meet the daily quota. */
  keyFor(scenario: ScenarioId, run: number): string;
  log: string;
}

/** Per-process counters read before and after a run. */
interface Counters {
  nats: NatsCounters;
  stack: StackCounters;
}

function difference(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const d: Record<string, number> = {};
  for (const [name, n] of Object.entries(after)) d[name] = n - (before[name] ?? Number.NaN);
  return d;
}

async function counters(stack: Stack): Promise<Counters> {
  return { nats: await natsCounters(stack), stack: stackCounters(stack) };
}

function delta(before: Counters, after: Counters, http: WrkResult, handler: HandlerTimes): MeteringDelta {
  const meteringRequests: Record<string, number> = {};
  for (const [name, n] of Object.entries(after.nats.metering)) {
    const d = n - (before.nats.metering[name] ?? 0);
    if (d > 0) meteringRequests[name] = d;
  }
  return {
    httpRequests: http.requests,
    seconds: http.seconds,
    natsInMsgs: after.nats.inMsgs - before.nats.inMsgs,
    meteringRequests,
    cpuSeconds: difference(after.stack.cpu, before.stack.cpu),
    preemptions: difference(after.stack.preemptions, before.stack.preemptions),
    kernelSeconds: difference(after.stack.kernelSeconds, before.stack.kernelSeconds),
    waitedSeconds: difference(after.stack.waitedSeconds, before.stack.waitedSeconds),
    handler,
  };
}

/** Fresh processes for each matched run: time for the connections, the JIT and the burn to settle. */
const MATCHED_WARMUP_SECONDS = 2;

function fmt(r: WrkResult): string {
  const bad = r.non2xx || r.socketErrors ? ` non2xx=${r.non2xx} socketErrors=${r.socketErrors}` : '';
  return `${Math.round(r.rps).toString().padStart(6)} req/s p50 ${r.p50Ms.toFixed(2)} ms p99 ${r.p99Ms.toFixed(2)} ms${bad}`;
}

export async function runHttpBench(input: HttpBenchInput): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of input.scenarios) {
    const isMix = scenario.path === undefined;
    // The raw servers get the stack's keys too (they ignore them): wrk then sends the same bytes down the same
    // path (one prebuilt request per key in turn, see wrk/fixed.lua) to both.
    const target = (base: string, key: string, run: number) => ({
      base,
      apiKey: key,
      ...(isMix
        ? { pathsFile: input.mixFile, offset: Math.floor((run * input.mixLength) / (input.runs + 2)) }
        : { path: scenario.path }),
    });
    console.log(`==> ${scenario.title} (${isMix ? `${input.mixLength} distinct queries` : scenario.path})`);
    const warm = { ...input.wrk, seconds: input.warmupSeconds, log: input.log };
    await runWrk(target(input.raw.base, input.keyFor(scenario.id, input.runs), input.runs + 1), warm);
    await runWrk(target(input.stack.base, input.keyFor(scenario.id, input.runs), input.runs + 1), warm);
    const raw: WrkResult[] = [];
    const stack: WrkResult[] = [];
    const matched: MatchedRun[] = [];
    const metering: MeteringDelta[] = [];
    for (let run = 0; run < input.runs; run++) {
      const rawBefore = cpuSecondsOf(input.raw.pids);
      const r = await runWrk(target(input.raw.base, input.keyFor(scenario.id, run), run), { ...input.wrk, log: input.log });
      const rawMicros = microsPerRequest(cpuSecondsOf(input.raw.pids) - rawBefore, r.requests);
      raw.push(r);
      console.log(`    raw   #${run + 1} ${fmt(r)}`);
      const logs = markRequestLogs(input.stack.pm2Home);
      const before = await counters(input.stack);
      const s = await runWrk(target(input.stack.base, input.keyFor(scenario.id, run), run), { ...input.wrk, log: input.log });
      const after = await counters(input.stack);
      stack.push(s);
      const d = delta(before, after, s, await handlerTimesSince(input.stack.pm2Home, logs));
      metering.push(d);
      console.log(`    stack #${run + 1} ${fmt(s)}`);
      const workersMicros = microsPerRequest(workersCpuSeconds(d.cpuSeconds), s.requests);
      const m = await matchedRun(input, (base) => target(base, input.keyFor(scenario.id, run), run), rawMicros, workersMicros);
      matched.push(m);
      console.log(`    cost-matched raw #${run + 1} ${fmt(m.wrk)} (CPU per request: raw ${rawMicros.toFixed(1)}, workers ${workersMicros.toFixed(1)}, this ${m.measuredMicros.toFixed(1)} µs)`);
    }
    let diagnostic: Record<string, number> | undefined;
    if (stack.some((s) => s.non2xx > 0 || s.socketErrors > 0)) {
      const d = await runWrk(target(input.stack.base, input.keyFor(scenario.id, 0), 0), { ...input.wrk, seconds: 2, countStatuses: true, log: input.log });
      diagnostic = d.statuses;
      console.log(`    non-2xx seen: statuses of a 2 s diagnostic run: ${JSON.stringify(diagnostic)}`);
    }
    const rawRps = median(raw.map((r) => r.rps));
    const stackRps = median(stack.map((r) => r.rps));
    results.push({
      id: scenario.id,
      title: scenario.title,
      endpoint: scenario.endpoint,
      path: scenario.path ?? `${input.mixLength} distinct paths`,
      raw,
      stack,
      matched,
      metering,
      ...(diagnostic ? { diagnostic } : {}),
      median: {
        rawRps,
        stackRps,
        ratio: stackRps / rawRps,
        stackP50Ms: median(stack.map((r) => r.p50Ms)),
        stackP99Ms: median(stack.map((r) => r.p99Ms)),
        rawP50Ms: median(raw.map((r) => r.p50Ms)),
        rawP99Ms: median(raw.map((r) => r.p99Ms)),
        matchedRps: median(matched.map((m) => m.wrk.rps)),
        matchedP50Ms: median(matched.map((m) => m.wrk.p50Ms)),
        matchedP99Ms: median(matched.map((m) => m.wrk.p99Ms)),
      },
    });
  }
  return results;
}

/** One run of the cost-matched ceiling, on fresh raw servers matching the workers' CPU per request just measured. */
async function matchedRun(
  input: HttpBenchInput,
  target: (base: string) => Parameters<typeof runWrk>[0],
  rawMicros: number,
  workersMicros: number,
): Promise<MatchedRun> {
  if (!Number.isFinite(workersMicros)) throw new Error('no CPU per request of the API workers to match');
  const servers = await input.startMatched(Math.round(workersMicros));
  try {
    // The warm-up is also where the servers' burn settles (cpu-matcher.ts).
    await runWrk(target(servers.base), { ...input.wrk, seconds: Math.min(MATCHED_WARMUP_SECONDS, input.warmupSeconds), log: input.log });
    const before = cpuSecondsOf(servers.pids);
    const wrk = await runWrk(target(servers.base), { ...input.wrk, log: input.log });
    return { rawMicros, workersMicros, measuredMicros: microsPerRequest(cpuSecondsOf(servers.pids) - before, wrk.requests), wrk };
  } finally {
    await servers.stop();
  }
}
