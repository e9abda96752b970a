// The stack as production runs it: `pm2 start ecosystem.config.cjs` from the subject's tree (nats-server,
// metering and the API workers running its dist/ bundles), with its own PM2_HOME, ports and DATA_DIR.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { onCleanup, run } from './processes.ts';

export interface Stack {
  base: string;
  env: NodeJS.ProcessEnv;
  /** The subject's pm2 and its ecosystem file. */
  pm2: string;
  stop(): void;
}

export interface StackOptions {
  root: string;
  httpPort: number;
  natsPort: number;
  dataDir: string;
  pm2Home: string;
  apiWorkers: number;
  snapshotPath: string;
  /** More settings for the ecosystem (a subject ignores those it does not know). */
  env?: Record<string, string>;
}

const HEALTH_TIMEOUT_MS = 90_000;
const POLL_MS = 250;

export async function waitForHttp(url: string, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
      last = `status ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await sleep(POLL_MS);
  }
  throw new Error(`${what} did not answer ${url} within ${timeoutMs} ms (${last})`);
}

export async function startStack(o: StackOptions): Promise<Stack> {
  const pm2 = path.join(o.root, 'node_modules/.bin/pm2');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PM2_HOME: o.pm2Home,
    PORT: String(o.httpPort),
    // Loopback only: the bench never exposes the stack beyond this machine.
    HOST: '127.0.0.1',
    NATS_PORT: String(o.natsPort),
    DATA_DIR: o.dataDir,
    SNAPSHOT_PATH: o.snapshotPath,
    API_WORKERS: String(o.apiWorkers),
    TRUST_PROXY: '',
    // Any free port: the bench does not scrape, and another stack may hold the default.
    METRICS_PORT: '0',
    ...o.env,
  };
  // The ecosystem starts nats-server unless NATS_URL names another one.
  delete env.NATS_URL;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    run(pm2, ['kill'], { env, quiet: true });
  };
  onCleanup(stop);
  run(pm2, ['start', path.join(o.root, 'ecosystem.config.cjs')], { env, cwd: o.root, quiet: true });
  const base = `http://127.0.0.1:${o.httpPort}`;
  try {
    await waitForHttp(`${base}/healthz`, HEALTH_TIMEOUT_MS, 'the API');
    await waitForWorkers(pm2, env, o.apiWorkers);
  } catch (err) {
    const logs = run(pm2, ['logs', '--nostream', '--lines', '40'], { env, quiet: true });
    throw new Error(`${(err as Error).message}\n--- pm2 logs ---\n${logs}`);
  }
  return { base, env, pm2, stop };
}

export interface Pm2Process {
  name: string;
  pid: number;
  pm2_env: { status: string; restart_time?: number };
}

export function jlist(stack: Pick<Stack, 'pm2' | 'env'>): Pm2Process[] {
  const out = run(stack.pm2, ['jlist'], { env: stack.env, quiet: true });
  return JSON.parse(out.slice(out.indexOf('['))) as Pm2Process[];
}

async function waitForWorkers(pm2: string, env: NodeJS.ProcessEnv, count: number): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (jlist({ pm2, env }).filter((p) => p.name === 'api' && p.pm2_env.status === 'online').length >= count) return;
    await sleep(POLL_MS);
  }
  throw new Error(`fewer than ${count} API workers came online`);
}

/** The metering processes' pids. */
export function meteringPids(stack: Stack): number[] {
  return jlist(stack).filter((p) => p.name === 'metering' && p.pid > 0).map((p) => p.pid);
}

/** The API workers' pids, in pm2's order. */
export function workerPids(stack: Stack): number[] {
  return jlist(stack).filter((p) => p.name === 'api' && p.pid > 0).map((p) => p.pid);
}

/** pm2's count of restarts per process name: a worker that crashed under load shows up here. */
export function restarts(stack: Stack): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const p of jlist(stack)) counts[p.name] = (counts[p.name] ?? 0) + (p.pm2_env.restart_time ?? 0);
  return counts;
}
