// `--profile <endpoint>`: one more load of that endpoint with the API workers and metering under --cpu-prof,
// then the hottest functions of the workers' profiles (self time), to say where a missed target's time goes.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { freePort } from '../../test/support/nats.ts';
import type { BenchOptions } from './args.ts';
import { raiseToInstitution, registerKeys } from './keys.ts';
import { run } from './processes.ts';
import type { BenchResults, HotFunction } from './results.ts';
import { scenarios } from './scenarios.ts';
import type { ScenarioPaths } from './scenarios.ts';
import { frameLabel, sampledStacks } from './cpu-profile.ts';
import type { SampledStack } from './cpu-profile.ts';
import { flameGraphSvg, foldedStacks } from './flamegraph.ts';
import { isWorker, processMemory } from './proc-stats.ts';
import { startStack } from './stack.ts';
import { runWrk } from './wrk.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PM2 = path.join(ROOT, 'node_modules/.bin/pm2');
const TOP_FUNCTIONS = 30;
/** Caller frames shown per hot function. */
const CALLER_DEPTH = 3;
/** Registrations of the profiling pass come from another loopback /24 than the main pass's (throttle). */
const PROFILE_SUBNET = 1;

/** Self and total shares of busy samples per function (name + file + line). */
export function hotFunctions(stacks: readonly SampledStack[], top = TOP_FUNCTIONS): HotFunction[] {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  /** For each function, its nearest caller that is not itself, by samples: who makes it hot. */
  const callers = new Map<string, Map<string, number>>();
  let samples = 0;
  for (const { frames, hits } of stacks) {
    samples += hits;
    const key = frames[frames.length - 1];
    self.set(key, (self.get(key) ?? 0) + hits);
    let up = frames.length - 2;
    while (up >= 0 && frames[up] === key) up--;
    const chain = frames.slice(Math.max(0, up - CALLER_DEPTH + 1), up + 1).reverse().map(frameLabel).join(' < ');
    if (chain) {
      let byCaller = callers.get(key);
      if (!byCaller) callers.set(key, (byCaller = new Map()));
      byCaller.set(chain, (byCaller.get(chain) ?? 0) + hits);
    }
    // Count each function once per sample even when it recurses.
    for (const k of new Set(frames)) total.set(k, (total.get(k) ?? 0) + hits);
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, hits]) => {
      const [name, location] = key.split('\u0000');
      const topCallers = [...(callers.get(key) ?? new Map<string, number>()).entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 2)
        .map(([chain, n]) => `${((100 * n) / hits).toFixed(0)}% from ${chain}`);
      return { selfPercent: (100 * hits) / samples, totalPercent: (100 * (total.get(key) ?? 0)) / samples, name, location, callers: topCallers };
    });
}

export async function runProfile(input: {
  opts: BenchOptions;
  tmp: string;
  dataDir: string;
  prepared: ScenarioPaths & { mixFile: string; mix: readonly unknown[] };
  email: string;
}): Promise<NonNullable<BenchResults['profile']>> {
  const { opts, tmp, prepared } = input;
  const scenario = scenarios(prepared).find((s) => s.id === opts.profile);
  if (!scenario) throw new Error(`--profile: unknown endpoint ${opts.profile}`);
  const dir = path.join(tmp, 'profiles');
  fs.mkdirSync(dir, { recursive: true });
  console.log(`==> profiling ${scenario.title}: workers under --cpu-prof (profiles in ${dir})`);
  const ports = { http: await freePort(), nats: await freePort(), natsMonitor: await freePort() };
  const stack = await startStack({
    ports,
    dataDir: input.dataDir,
    tmp,
    apiWorkers: opts.apiWorkers,
    ecosystem: path.join(import.meta.dirname, 'profile.config.cjs'),
    pm2Dir: 'pm2-profile',
    extraEnv: { BENCH_PROFILE_DIR: dir },
  });
  let rps = 0;
  let apiPids: number[] = [];
  let windowUs = 0;
  try {
    // A new key starts on the free plan even for an institution developer (metering's rule): raise it again.
    const [key] = await registerKeys(stack, input.email, 1, PROFILE_SUBNET);
    await raiseToInstitution(stack, input.email, key);
    const loadStarted = Date.now();
    const result = await runWrk(
      scenario.path
        ? { base: stack.base, apiKey: key, path: scenario.path }
        : { base: stack.base, apiKey: key, pathsFile: prepared.mixFile, offset: 0 },
      { threads: opts.threads, connections: opts.connections, seconds: opts.durationSeconds, loadClass: opts.loadClass, acceptEncoding: opts.acceptEncoding },
    );
    rps = result.rps;
    console.log(`    ${Math.round(rps)} req/s under the profiler, p99 ${result.p99Ms.toFixed(2)} ms, non-2xx ${result.non2xx}`);
    apiPids = processMemory(stack).filter((m) => isWorker(m.name)).map((m) => m.pid);
    // A graceful stop lets each process exit normally, which is when Node writes its profile. Only the
    // samples from the load's start to the exit count (the window ends at the profile's end).
    const stopAsked = Date.now();
    run(PM2, ['stop', 'all'], { env: stack.env, quiet: true });
    windowUs = (Date.now() - loadStarted) * 1000;
    console.log(`    (load ${((stopAsked - loadStarted) / 1000).toFixed(1)} s, stop ${((Date.now() - stopAsked) / 1000).toFixed(1)} s)`);
  } finally {
    await stack.stop();
  }
  await sleep(500);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(dir, f));
  const apiFiles = files.filter((f) => apiPids.some((pid) => path.basename(f).includes(`.${pid}.`)));
  if (apiFiles.length === 0) throw new Error(`no CPU profile of the API workers was written in ${dir}`);
  const stacks = sampledStacks(apiFiles, windowUs);
  const hot = hotFunctions(stacks, TOP_FUNCTIONS);
  // Keep the workers' profiles (open them in Chrome DevTools or speedscope) beside the results, with a flame
  // graph of the load window and its folded stacks.
  const keep = path.join(ROOT, 'bench-out', `profile-${scenario.id}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  fs.mkdirSync(keep, { recursive: true });
  for (const f of apiFiles) fs.copyFileSync(f, path.join(keep, path.basename(f)));
  const flameGraph = path.join(keep, 'flame.svg');
  const title = `API workers under ${scenario.title}: ${Math.round(rps)} req/s under the profiler, load window only`;
  fs.writeFileSync(flameGraph, flameGraphSvg(stacks, title));
  fs.writeFileSync(path.join(keep, 'stacks.folded'), foldedStacks(stacks));
  console.log(`    flame graph: ${path.relative(ROOT, flameGraph)}`);
  console.log('    hottest functions of the API workers (self time):');
  for (const h of hot.slice(0, 12)) {
    console.log(`    ${h.selfPercent.toFixed(1).padStart(5)}% self ${h.totalPercent.toFixed(1).padStart(5)}% total  ${h.name} ${h.location}`);
    if (h.callers[0]) console.log(`           ${h.callers[0]}`);
  }
  return {
    scenario: scenario.id,
    files: apiFiles.map((f) => path.relative(ROOT, path.join(keep, path.basename(f)))),
    flameGraph: path.relative(ROOT, flameGraph),
    hot,
    rps,
  };
}
