// Section "floods": a client sending one request at a time on its own key, idle and while one address floods the
// stack with requests that are cheap to send (registrations, random keys, /healthz: wrk/flood.lua), straight to
// the workers and through nginx running docs/nginx.conf, with the flood's generator at two priorities. The
// workers' bounds (services/api/guards/) and nginx's limits should leave the probe's latency near idle;
// test/reliability/abuse.flood.test.ts and test/reliability/nginx.test.ts check the outcomes, this the time.
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import type { BenchContext, Figure, Section } from './context.ts';
import { registerKeys } from './keys.ts';
import { f2, n0, table } from './markdown.ts';
import { freePort } from './processes.ts';
import { cpuSecondsOf } from './proc-stats.ts';
import { meteringPids, startStack, workerPids, type Stack } from './stack.ts';
import { percentile, sortedFloat64 } from './stats.ts';
import { runWrk, type WrkResult } from './wrk.ts';

export const FLOODS = ['registrations', 'keys', 'healthz'] as const;
export type Flood = (typeof FLOODS)[number];
/** Straight to the workers' port, or through nginx in front of it (the deployment docs/reverse-proxy.md ships). */
export const ROUTES = ['workers', 'nginx'] as const;
export type Route = (typeof ROUTES)[number];
/**
 * How the flood's wrk is scheduled. `plain`: as every wrk of the bench (wrk.ts, clientPriority: nice -10 where
 * the bench may raise it), taking the 2 cores ahead of the servers. `attacker`: at nice 19 in a session of its own whose autogroup
 * is at nice 19, so that it takes only the CPU the servers leave: an attacker's CPU is its own machine's, not
 * ours, and a flood generator on our cores slows the probe by taking them, which no server-side guard can
 * prevent. Both are reported.
 */
export const GENERATORS = ['plain', 'attacker'] as const;
export type Generator = (typeof GENERATORS)[number];
// Lowering a priority needs no privilege.
const ATTACKER_PREFIX = ['setsid', 'sh', '-c', '{ [ ! -e /proc/self/autogroup ] || echo 19 > /proc/self/autogroup; } 2>/dev/null; exec nice -n 19 "$@"', 'wrk-flood'];
/** The probe's measured requests per phase, after PROBE_WARMUP: a group's four phases stay within a free key's day. */
const PROBE_REQUESTS = 200;
const PROBE_WARMUP = 5;
const PROBE_PATH = '/api/v1/languages';
/** The flood as the adversarial review sent it: `wrk -t2 -c400` from one address. */
const FLOOD_THREADS = 2;
const FLOOD_CONNECTIONS = 400;
/** The probe's own address through nginx (the flood's is 127.0.0.1): nginx's limits are per address. */
const PROBE_ADDRESS = '127.0.0.2';

export interface FloodPhase {
  route: Route;
  generator: Generator;
  flood: Flood | 'idle';
  /** Probe requests measured (those sent while the flood ran). */
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Probe responses other than 200. */
  failures: number;
  /** The flood's own throughput and non-2xx (undefined when idle). */
  wrk?: WrkResult;
  /** The machine's 1-minute load average when the phase ended. */
  loadavg: number;
  /**
   * CPU the phase cost, in cores (CPU seconds per second): the API workers and metering together, and nginx
   * (0 on the workers route). Unlike the probe's latency, these hardly depend on the machine's other load: a
   * flood that nginx refuses leaves the workers at their idle figure.
   */
  serverCores: number;
  nginxCores: number;
}

export interface FloodsResult {
  phases: FloodPhase[];
}

interface Target {
  port: number;
  localAddress?: string;
}

function timedGet(agent: http.Agent, target: Target, apiKey: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port: target.port, localAddress: target.localAddress, path: PROBE_PATH, headers: { 'x-api-key': apiKey }, agent };
    const req = http.get(options, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
  });
}

type ProbeResult = Pick<FloodPhase, 'requests' | 'p50Ms' | 'p99Ms' | 'failures'>;

/** Cores used by `pids` from now until the returned function is called. */
function cores(pids: readonly number[]): () => number {
  const cpu = cpuSecondsOf(pids);
  const started = performance.now();
  return () => (cpuSecondsOf(pids) - cpu) / ((performance.now() - started) / 1000);
}

/** One request at a time on `apiKey` until PROBE_REQUESTS are measured or `done` settles. */
async function probe(target: Target, apiKey: string, done?: Promise<unknown>): Promise<ProbeResult> {
  let finished = false;
  void done?.finally(() => (finished = true));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  let failures = 0;
  try {
    for (let i = 0; i < PROBE_WARMUP + PROBE_REQUESTS && !finished; i++) {
      const { ms, status } = await timedGet(agent, target, apiKey);
      if (status !== 200) failures++;
      if (i >= PROBE_WARMUP) times.push(ms);
    }
  } finally {
    agent.destroy();
  }
  const sorted = sortedFloat64(times);
  return { requests: times.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), failures };
}

/** The processes whose CPU a phase counts, read once before the phases (pm2's jlist takes seconds under load). */
interface Servers {
  stack: number[];
  nginx: number[];
}

/** Idle, then each flood, on one route with one generator. */
async function phases(ctx: BenchContext, servers: Servers, route: Route, generator: Generator, target: Target, apiKey: string): Promise<FloodPhase[]> {
  const say = `${route}, ${generator} generator`;
  // The CPU counters are read before the flood starts. Idle lasts as long as a flood, so that the servers'
  // cores compare over the same span.
  const measure = async (flood: Flood | 'idle', start: () => Promise<WrkResult | undefined>): Promise<FloodPhase> => {
    const [stackCores, nginxCores] = [cores(servers.stack), cores(servers.nginx)];
    const sent = start();
    const measured = await probe(target, apiKey, flood === 'idle' ? undefined : sent);
    const wrk = await sent;
    return { route, generator, flood, ...measured, wrk, loadavg: os.loadavg()[0], serverCores: stackCores(), nginxCores: route === 'nginx' ? nginxCores() : 0 };
  };
  console.log(`==> floods (${say}): probe idle`);
  const out: FloodPhase[] = [await measure('idle', () => sleep(ctx.opts.durationSeconds * 1000, undefined))];
  for (const flood of FLOODS) {
    const p = await measure(flood, () =>
      runWrk(
        { base: `http://127.0.0.1:${target.port}`, apiKeys: '', script: { name: 'flood.lua', args: [flood] } },
        {
          threads: FLOOD_THREADS,
          connections: FLOOD_CONNECTIONS,
          seconds: ctx.opts.durationSeconds,
          log: ctx.log,
          prefix: generator === 'plain' ? ctx.client.prefix : ATTACKER_PREFIX,
        },
      ),
    );
    out.push(p);
    console.log(`    ${flood} (${say}): probe p50 ${f2(p.p50Ms)} ms (idle ${f2(out[0].p50Ms)}), p99 ${f2(p.p99Ms)} ms, ` +
      `${p.failures} not 200; flood ${n0(p.wrk?.rps ?? 0)} req/s; cores: servers ${f2(p.serverCores)}, nginx ${f2(p.nginxCores)}; load ${f2(p.loadavg)}`);
  }
  return out;
}

async function run(ctx: BenchContext): Promise<FloodsResult> {
  const real = await ctx.realSnapshot();
  const httpPort = await freePort();
  const stack: Stack = await startStack({
    root: ctx.subject.root,
    httpPort,
    natsPort: await freePort(),
    dataDir: path.join(ctx.dir, 'floods-data'),
    pm2Home: path.join(ctx.dir, 'floods-pm2'),
    apiWorkers: ctx.opts.apiWorkers,
    snapshotPath: real.path,
    // Straight to the workers the flood's X-Forwarded-For names its one client address; through nginx, nginx's.
    env: { TRUST_PROXY: '127.0.0.1' },
  });
  // nginx's helper is loaded when the section runs: it takes ports, and the report that renders this section's
  // results (with its unit-tier test) must not reach a server through it (scripts/test-files.ts).
  const { startNginx } = await import('../../test/support/nginx.ts');
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  try {
    nginx = await startNginx(httpPort, {
      conf: path.join(ctx.subject.root, 'docs/nginx.conf'),
      workers: 'auto',
      workerConnections: 4096,
      errorLogLevel: 'error',
    });
    // A key for each route and generator: a free key's day holds one group's probes.
    const keys = await registerKeys(stack, 'bench-probe@bench.invalid', ROUTES.length * GENERATORS.length);
    const all: FloodPhase[] = [];
    const servers: Servers = { stack: [...workerPids(stack), ...meteringPids(stack)], nginx: nginx.pids() };
    for (const route of ROUTES) {
      const target: Target = route === 'nginx' ? { port: nginx.port, localAddress: PROBE_ADDRESS } : { port: httpPort };
      for (const generator of GENERATORS) all.push(...(await phases(ctx, servers, route, generator, target, keys.pop() ?? '')));
    }
    return { phases: all };
  } finally {
    await nginx?.stop();
    stack.stop();
  }
}

function render(r: FloodsResult): string {
  const idleOf = (p: FloodPhase) => r.phases.find((q) => q.flood === 'idle' && q.route === p.route && q.generator === p.generator);
  const rows = r.phases.map((p) => [
    p.route,
    p.generator,
    p.flood,
    n0(p.requests),
    `**${f2(p.p50Ms)}**`,
    `**${f2(p.p50Ms / (idleOf(p)?.p50Ms ?? Number.NaN))}**`,
    f2(p.p99Ms),
    p.failures,
    p.wrk ? n0(p.wrk.rps) : '-',
    p.wrk ? n0(p.wrk.non2xx) : '-',
    f2(p.serverCores),
    p.route === 'nginx' ? f2(p.nginxCores) : '-',
    f2(p.loadavg),
  ]);
  return `## Floods

The stack as in the HTTP section, with \`TRUST_PROXY=127.0.0.1\`. A probe sends one request at a time on its own
free key (\`GET ${PROBE_PATH}\`, keep-alive), idle and while wrk floods the stack from one client address
(\`wrk -t${FLOOD_THREADS} -c${FLOOD_CONNECTIONS}\`, \`scripts/bench/wrk/flood.lua\`) with new registrations, new random
keys, or \`/healthz\`. Route \`workers\`: straight to the workers' port, which refuse such floods themselves
(\`services/api/guards/\`). Route \`nginx\`: through nginx running \`docs/nginx.conf\` (\`worker_processes auto\`),
the probe from another loopback address than the flood, so that nginx's per-address limits cut the flood
before a worker sees it. Generator \`plain\`: the flood's wrk at the priority of every wrk of the bench (above:
nice -10 where the bench may raise it), taking the 2 cores ahead of the servers. Generator \`attacker\`: the flood's wrk at nice 19 (its autogroup
too), taking only what the servers leave, as an attacker's own machine would: on the \`plain\` rows the
probe also waits for the cores the generator takes, which no guard in the service can give back. Each group
measures its own idle first; the target is a probe p50 within 2× of it and no probe answer but 200. Latencies
in ms; cores are the CPU seconds per second the API workers and metering (servers), and nginx, used in the
phase: a flood nginx refuses leaves the servers' figure at idle, whatever else loads the machine. Load is the
machine's 1-minute load average at the end of the phase.

${table(['route', 'generator', 'flood', 'probe requests', 'probe p50', 'p50 / idle', 'probe p99', 'probe not 200', 'flood req/s', 'flood non-2xx', 'servers cores', 'nginx cores', 'load'], rows)}
`;
}

function figures(r: FloodsResult): Figure[] {
  return r.phases.map((p) => ({ name: `probe p50, ${p.route}, ${p.generator}, ${p.flood}`, value: p.p50Ms, unit: 'ms', better: 'lower' as const }));
}
export const floodsSection: Section<'floods'> = { id: 'floods', run, render, figures };
