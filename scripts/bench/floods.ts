// Section "floods": a client sending one request at a time on its own key, idle and while one address floods the
// stack with requests that are cheap to send (registrations, random keys, /healthz: wrk/flood.lua). The workers'
// bounds (services/api/guards/) should leave the probe's latency near idle; test/reliability/abuse.flood.test.ts
// checks the outcomes (no 500, bounded rows), this measures the time.
import http from 'node:http';
import path from 'node:path';

import type { BenchContext, Figure, Section } from './context.ts';
import { registerKeys } from './keys.ts';
import { f2, n0, table } from './markdown.ts';
import { freePort } from './processes.ts';
import { startStack, type Stack } from './stack.ts';
import { percentile, sortedFloat64 } from './stats.ts';
import { runWrk, type WrkResult } from './wrk.ts';

export const FLOODS = ['registrations', 'keys', 'healthz'] as const;
export type Flood = (typeof FLOODS)[number];
/** The probe's measured requests per phase, after PROBE_WARMUP: four phases stay within a free key's day. */
const PROBE_REQUESTS = 200;
const PROBE_WARMUP = 20;
const PROBE_PATH = '/api/v1/languages';
/** wrk's connections for a flood: many clients' worth from one address. */
const FLOOD_CONNECTIONS = 200;

export interface FloodPhase {
  flood: Flood | 'idle';
  /** Probe requests measured (those sent while the flood ran). */
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Probe responses other than 200. */
  failures: number;
  /** The flood's own throughput and non-2xx (undefined when idle). */
  wrk?: WrkResult;
}

export interface FloodsResult {
  phases: FloodPhase[];
}

function timedGet(agent: http.Agent, base: string, apiKey: string): Promise<{ ms: number; status: number }> {
  const url = new URL(PROBE_PATH, base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: url.port, path: PROBE_PATH, headers: { 'x-api-key': apiKey }, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
  });
}

/** One request at a time on `apiKey` until PROBE_REQUESTS are measured or `done` settles. */
async function probe(stack: Stack, apiKey: string, done?: Promise<unknown>): Promise<Omit<FloodPhase, 'flood'>> {
  let finished = false;
  void done?.finally(() => (finished = true));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  let failures = 0;
  try {
    for (let i = 0; i < PROBE_WARMUP + PROBE_REQUESTS && !finished; i++) {
      const { ms, status } = await timedGet(agent, stack.base, apiKey);
      if (status !== 200) failures++;
      if (i >= PROBE_WARMUP) times.push(ms);
    }
  } finally {
    agent.destroy();
  }
  const sorted = sortedFloat64(times);
  return { requests: times.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), failures };
}

async function run(ctx: BenchContext): Promise<FloodsResult> {
  const real = await ctx.realSnapshot();
  const stack = await startStack({
    root: ctx.subject.root,
    httpPort: await freePort(),
    natsPort: await freePort(),
    dataDir: path.join(ctx.dir, 'floods-data'),
    pm2Home: path.join(ctx.dir, 'floods-pm2'),
    apiWorkers: ctx.opts.apiWorkers,
    snapshotPath: real.path,
    // The flood's X-Forwarded-For names its one client address.
    env: { TRUST_PROXY: '127.0.0.1' },
  });
  try {
    const [apiKey] = await registerKeys(stack, 'bench-probe@bench.invalid', 1);
    console.log('==> floods: probe idle');
    const phases: FloodPhase[] = [{ flood: 'idle', ...(await probe(stack, apiKey)) }];
    for (const flood of FLOODS) {
      console.log(`==> floods: probe while one address floods ${flood} (${FLOOD_CONNECTIONS} connections)`);
      const sent = runWrk(
        { base: stack.base, apiKeys: '', script: { name: 'flood.lua', args: [flood] } },
        { threads: 1, connections: FLOOD_CONNECTIONS, seconds: ctx.opts.durationSeconds, log: ctx.log, prefix: ctx.client.prefix },
      );
      const measured = await probe(stack, apiKey, sent);
      phases.push({ flood, ...measured, wrk: await sent });
      const p = phases[phases.length - 1];
      console.log(`    probe p50 ${f2(p.p50Ms)} ms, p99 ${f2(p.p99Ms)} ms, ${p.failures} not 200; flood ${n0(p.wrk?.rps ?? 0)} req/s`);
    }
    return { phases };
  } finally {
    stack.stop();
  }
}

function render(r: FloodsResult): string {
  const idle = r.phases.find((p) => p.flood === 'idle');
  const rows = r.phases.map((p) => [
    p.flood,
    n0(p.requests),
    `**${f2(p.p50Ms)}**`,
    idle ? f2(p.p50Ms / idle.p50Ms) : '-',
    f2(p.p99Ms),
    p.failures,
    p.wrk ? n0(p.wrk.rps) : '-',
    p.wrk ? n0(p.wrk.non2xx) : '-',
  ]);
  return `## Floods

The stack as in the HTTP section, with \`TRUST_PROXY=127.0.0.1\`. A probe sends one request at a time on its own
free key (\`GET ${PROBE_PATH}\`, keep-alive), idle and while wrk floods the stack from one client address on
${FLOOD_CONNECTIONS} connections (\`scripts/bench/wrk/flood.lua\`): new registrations, new random keys, or
\`/healthz\`. The workers refuse such floods themselves (\`services/api/guards/\`); the probe's p50 should stay
near idle. Latencies in ms.

${table(['flood', 'probe requests', 'probe p50', 'p50 / idle', 'probe p99', 'probe not 200', 'flood req/s', 'flood non-2xx'], rows)}
`;
}

function figures(r: FloodsResult): Figure[] {
  return r.phases.map((p) => ({ name: `probe p50, ${p.flood}`, value: p.p50Ms, unit: 'ms', better: 'lower' as const }));
}

export const floodsSection: Section<'floods'> = { id: 'floods', run, render, figures };
