// The stack as production runs it: its own nats-server (with the monitoring port the bench reads), then
// metering and the API workers from dist/ under pm2 with ecosystem.config.cjs, in a private PM2_HOME.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, RequestStrategy } from 'nats';

import { METERING_SERVICE_NAME } from '../../services/shared/metering/subjects.ts';
import { onCleanup, run, startChild, stopChild } from './processes.ts';
import type { ChildProcess } from 'node:child_process';

export interface StackPorts {
  http: number;
  nats: number;
  natsMonitor: number;
}

export interface Stack {
  base: string;
  natsUrl: string;
  env: NodeJS.ProcessEnv;
  ports: StackPorts;
  pm2Home: string;
  natsPid?: number;
  stop(): Promise<void>;
}

export interface NatsCounters {
  inMsgs: number;
  outMsgs: number;
  /** Requests the metering service handled, per endpoint ($SRV.STATS), when it answers. */
  metering: Record<string, number>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const PM2 = path.join(ROOT, 'node_modules/.bin/pm2');
const HEALTH_TIMEOUT_MS = 90_000;

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
    await sleep(250);
  }
  throw new Error(`${what} did not answer ${url} within ${timeoutMs} ms (${last})`);
}

export async function startNatsServer(ports: StackPorts, logDir: string): Promise<ChildProcess> {
  const child = startChild('nats-server', ['-a', '127.0.0.1', '-p', String(ports.nats), '-m', String(ports.natsMonitor)], {
    log: path.join(logDir, 'nats.log'),
  });
  await waitForHttp(`http://127.0.0.1:${ports.natsMonitor}/varz`, 10_000, 'nats-server');
  return child;
}

export async function startStack(opts: {
  ports: StackPorts;
  dataDir: string;
  tmp: string;
  apiWorkers: number;
  /** An ecosystem file other than production's (the profiling overlay), and its own pm2 home. */
  ecosystem?: string;
  pm2Dir?: string;
  extraEnv?: NodeJS.ProcessEnv;
}): Promise<Stack> {
  const { ports, dataDir, tmp } = opts;
  const logDir = path.join(tmp, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const nats = await startNatsServer(ports, logDir);
  const pm2Home = path.join(tmp, opts.pm2Dir ?? 'pm2');
  const natsUrl = `nats://127.0.0.1:${ports.nats}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PM2_HOME: pm2Home,
    PORT: String(ports.http),
    // Loopback only: the bench never exposes the stack beyond this machine.
    HOST: '127.0.0.1',
    NATS_PORT: String(ports.nats),
    // Set, so that the ecosystem leaves nats to the bench (which runs it with a monitoring port).
    NATS_URL: natsUrl,
    DATA_DIR: dataDir,
    API_WORKERS: String(opts.apiWorkers),
    TRUST_PROXY: '',
    // Every request logged, as production did before REQUEST_LOG's sampled default: the handler times below
    // read every request's line, and the workers' CPU per request stays comparable with earlier runs (it is
    // the costlier setting). No rotation: the handler times read each worker's log file from a mark.
    REQUEST_LOG: 'all',
    LOG_MAX_MB: '1048576',
    // Any free port: the bench does not scrape, and a stack of its own may hold the default.
    METRICS_PORT: '0',
    ...opts.extraEnv,
  };
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    run(PM2, ['kill'], { env, quiet: true });
  };
  onCleanup(kill);
  run(PM2, ['start', opts.ecosystem ?? path.join(ROOT, 'ecosystem.config.cjs')], { env, cwd: ROOT, quiet: true });
  const base = `http://127.0.0.1:${ports.http}`;
  try {
    await waitForHttp(`${base}/healthz`, HEALTH_TIMEOUT_MS, 'the API');
    await waitForWorkers(env, opts.apiWorkers);
  } catch (err) {
    const logs = run(PM2, ['logs', '--nostream', '--lines', '40'], { env, quiet: true });
    throw new Error(`${(err as Error).message}\n--- pm2 logs ---\n${logs}`);
  }
  return {
    base,
    natsUrl,
    env,
    ports,
    pm2Home,
    natsPid: nats.pid,
    async stop() {
      kill();
      await stopChild(nats);
    },
  };
}

export interface Pm2Process {
  name: string;
  pid: number;
  pm2_env: { status: string; restart_time?: number };
  monit?: { memory: number; cpu: number };
}

export function jlist(env: NodeJS.ProcessEnv): Pm2Process[] {
  const out = run(PM2, ['jlist'], { env, quiet: true });
  const start = out.indexOf('[');
  return JSON.parse(out.slice(start)) as Pm2Process[];
}

async function waitForWorkers(env: NodeJS.ProcessEnv, count: number): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const online = jlist(env).filter((p) => p.name === 'api' && p.pm2_env.status === 'online');
    if (online.length >= count) return;
    await sleep(250);
  }
  throw new Error(`fewer than ${count} API workers came online`);
}

/** pm2's view of restarts: a worker that crashed under load shows up here. */
export function restarts(stack: Stack): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const p of jlist(stack.env)) counts[p.name] = (counts[p.name] ?? 0) + (p.pm2_env.restart_time ?? 0);
  return counts;
}

export async function natsCounters(stack: Stack): Promise<NatsCounters> {
  const res = await fetch(`http://127.0.0.1:${stack.ports.natsMonitor}/varz`);
  const varz = (await res.json()) as { in_msgs: number; out_msgs: number };
  const metering: Record<string, number> = {};
  const nc = await connect({ servers: stack.natsUrl, name: 'bench-stats' });
  try {
    const stats = await nc.services.client({ strategy: RequestStrategy.JitterTimer, maxWait: 1000, jitter: 100 }).stats(METERING_SERVICE_NAME);
    for await (const s of stats) {
      for (const endpoint of s.endpoints ?? []) {
        metering[endpoint.name] = (metering[endpoint.name] ?? 0) + endpoint.num_requests;
      }
    }
  } catch {
    // The service may not expose stats; the varz counters still tell the story.
  } finally {
    await nc.close();
  }
  // Our own stats request and its replies are on the wire too; they are a handful against thousands.
  return { inMsgs: varz.in_msgs, outMsgs: varz.out_msgs, metering };
}
