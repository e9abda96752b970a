// A full real stack for integration tests: nats-server, the metering process and N API worker processes on
// ONE random port (SO_REUSEPORT), with the test snapshot and a temp DATA_DIR. Also an in-process variant
// (createApp on a random port, same real metering) for tests that inject a clock or a fault.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { closeApp, createApp } from '../../services/api/app.ts';
import { readApiConfig } from '../../services/api/config.ts';
import { connectMeter } from '../../services/api/metering-client/nats-meter.ts';
import { WorkerCounters } from '../../services/api/metrics/worker-stats.ts';
import { natsAuthFor } from '../../services/shared/nats-auth/credentials.ts';
import { writeServerConfig } from '../../services/shared/nats-auth/server-config.ts';
import { openSnapshot } from '../../snapshot/reader/reader.ts';
import { onUnsharedPort } from './listeners.ts';
import { startNats } from './nats.ts';
import { testSnapshotPath } from './snapshot.ts';
import { tempDir } from './temp-dir.ts';

import type { ChildProcess } from 'node:child_process';
import type { Deps, Logger } from '../../services/api/deps.ts';
import type { Server } from 'hyper-express';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';
import type { NatsHandle } from './nats.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const STARTUP_TIMEOUT_MS = 30_000;

export interface Registered {
  apiKey: string;
  keyPrefix: string;
  email: string;
  developerId: string;
}

export interface Backend {
  nats: NatsHandle;
  dataDir: string;
  natsUrl: string;
  /** Starts the metering processes that are not running (after killMetering). */
  startMetering(): Promise<void>;
  /** SIGKILL of metering process `index`, or of all of them (fault tests). */
  killMetering(index?: number): Promise<void>;
  /** Sends `signal` to every metering process (SIGSTOP and SIGCONT: a frozen metering, fault tests). */
  signalMetering(signal: NodeJS.Signals): void;
  /** Runs the operator CLI (`npm run ops -- …`) against this stack. */
  ops(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Everything the metering process wrote to stdout and stderr so far. */
  meteringLogs(): string;
  stop(): Promise<void>;
}

export interface Stack extends Backend {
  baseUrl: string;
  port: number;
  snapshotPath: string;
  /** Registers a developer (a fresh forwarded address each time, so the per-IP throttle does not interfere). */
  register(overrides?: Partial<{ name: string; email: string; keyName: string }>): Promise<Registered>;
  /** Registers and raises the plan through the ops CLI. */
  keyOnPlan(plan: 'free' | 'team' | 'institution'): Promise<Registered>;
  /** Everything the API workers wrote to stdout and stderr so far. */
  logs(): string;
  /** Sends `signal` to API worker `index` and resolves with its exit code (multi-process stack only). */
  signalWorker(index: number, signal?: NodeJS.Signals): Promise<number | null>;
  /** Each API worker's pid and whether it still runs (multi-process stack only). */
  workers(): { pid: number; running: boolean }[];
}

let registrations = 0;
/** A distinct client address per registration (TRUST_PROXY=127.0.0.1 in the stack honours it). */
export function fakeClientIp(): string {
  registrations++;
  return `10.${(process.pid >> 8) & 255}.${process.pid & 255}.${registrations % 250 + 1}`;
}

function spawnTsx(script: string, env: NodeJS.ProcessEnv, output: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return child;
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, output: () => string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`${what} did not come up within ${STARTUP_TIMEOUT_MS} ms. Output:\n${output()}`);
}

/**
 * nats-server, a temp DATA_DIR (or the caller's, left in place at stop) and the metering processes
 * (`meteringProcesses`, default 1, each serving its share of the shards).
 */
export async function startBackend(options: { dataDir?: string; meteringProcesses?: number } = {}): Promise<Backend> {
  const dataDir = options.dataDir ?? tempDir('dict-api-test-');
  // The bus as production runs it: each process connects as its role's user (DATA_DIR/nats/credentials.json).
  const nats = await startNats({ configFile: writeServerConfig(dataDir) });
  const output: string[] = [];
  const processes = options.meteringProcesses ?? 1;
  // Metrics on any free port: concurrent test files each run a metering process.
  const env = { NATS_URL: nats.url, DATA_DIR: dataDir, METRICS_PORT: '0', METERING_PROCESSES: String(processes) };
  const metering: (ChildProcess | undefined)[] = Array.from({ length: processes });
  const running = (child: ChildProcess | undefined) => child !== undefined && child.exitCode === null && child.signalCode === null;

  const startMetering = async (): Promise<void> => {
    for (let i = 0; i < processes; i++) {
      if (running(metering[i])) continue;
      const from = output.length;
      const child = spawnTsx('services/metering/main.ts', { ...env, NODE_APP_INSTANCE: String(i) }, output);
      metering[i] = child;
      await waitFor('metering', () => output.slice(from).join('').includes('"listening"') || child.exitCode != null, () => output.join(''));
      if (child.exitCode != null) throw new Error(`metering exited: ${output.join('')}`);
    }
  };
  await startMetering();

  return {
    nats,
    dataDir,
    natsUrl: nats.url,
    startMetering,
    async killMetering(index) {
      await Promise.all(metering.filter((_, i) => index === undefined || i === index).map((child) => child && stopChild(child, 'SIGKILL')));
    },
    signalMetering(signal) {
      for (const child of metering) if (running(child)) child?.kill(signal);
    },
    ops: (...args) =>
      new Promise((resolve) => {
        const out: string[] = [];
        const err: string[] = [];
        const child = spawn(process.execPath, ['--import', 'tsx', 'services/metering/ops/main.ts', ...args], {
          cwd: ROOT,
          env: { ...process.env, ...env },
        });
        child.stdout.on('data', (c: Buffer) => out.push(c.toString()));
        child.stderr.on('data', (c: Buffer) => err.push(c.toString()));
        child.on('exit', (code) => resolve({ code: code ?? 1, stdout: out.join(''), stderr: err.join('') }));
      }),
    meteringLogs: () => output.join(''),
    async stop() {
      await Promise.all(metering.map((child) => child && stopChild(child)));
      await nats.stop();
      if (options.dataDir === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function stackHelpers(baseUrl: string, backend: Backend) {
  const register: Stack['register'] = async (overrides = {}) => {
    const email = overrides.email ?? `dev-${process.pid}-${Date.now()}-${Math.random().toString(16).slice(2)}@example.org`;
    const res = await fetch(`${baseUrl}/api/v1/developers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': fakeClientIp() },
      body: JSON.stringify({ name: overrides.name ?? 'Test Developer', email, keyName: overrides.keyName }),
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${text}`);
    const body = JSON.parse(text) as { apiKey: string; keyPrefix: string; developer: { id: string; email: string } };
    return { apiKey: body.apiKey, keyPrefix: body.keyPrefix, email: body.developer.email, developerId: body.developer.id };
  };
  const keyOnPlan: Stack['keyOnPlan'] = async (plan) => {
    const registered = await register();
    if (plan !== 'free') {
      const result = await backend.ops('developers', 'set-plan', registered.email, plan, '--keys', registered.keyPrefix);
      if (result.code !== 0) throw new Error(`ops set-plan failed: ${result.stdout}${result.stderr}`);
    }
    return registered;
  };
  return { register, keyOnPlan };
}

/** The full stack with `workers` API processes (default 2) on one port. */
export async function startStack(
  options: { workers?: number; env?: NodeJS.ProcessEnv; dataDir?: string; meteringProcesses?: number } = {},
): Promise<Stack> {
  const backend = await startBackend({ dataDir: options.dataDir, meteringProcesses: options.meteringProcesses });
  const snapshotPath = testSnapshotPath();
  const output: string[] = [];
  const workers: ChildProcess[] = [];
  const startWorkers = async (port: number): Promise<void> => {
    for (let i = 0; i < (options.workers ?? 2); i++) {
      const from = output.length;
      const worker = spawnTsx(
        'services/api/main.ts',
        {
          PORT: String(port),
          HOST: '127.0.0.1',
          NATS_URL: backend.natsUrl,
          DATA_DIR: backend.dataDir,
          SNAPSHOT_PATH: snapshotPath,
          TRUST_PROXY: '127.0.0.1',
          NODE_APP_INSTANCE: String(i),
          // Every request's line: tests read them (which worker served, what a line holds).
          REQUEST_LOG: 'all',
          ...options.env,
        },
        output,
      );
      workers.push(worker);
      // Each worker must be listening itself, not just one of them.
      await waitFor(`API worker ${i}`, () => output.slice(from).join('').includes('"msg":"listening"') || worker.exitCode != null, () => output.join(''));
      if (worker.exitCode != null) throw new Error(`API worker ${i} exited: ${output.join('')}`);
    }
  };
  try {
    // The workers bind with SO_REUSEPORT, so the port must be one no concurrent test file's stack holds. (PORT=0
    // is no way out: uWS binds port 0 without SO_REUSEPORT, so no second worker could join it.)
    const { port } = await onUnsharedPort(
      async (p) => {
        await startWorkers(p);
        return workers;
      },
      (started) => started.map((w) => w.pid ?? -1),
      (started) => Promise.all(started.splice(0).map((w) => stopChild(w, 'SIGKILL'))).then(() => undefined),
    );
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitFor('healthz', async () => (await fetch(`${baseUrl}/healthz`).catch(() => undefined))?.status === 200, () => output.join(''));
    return {
      ...backend,
      ...stackHelpers(baseUrl, backend),
      baseUrl,
      port,
      snapshotPath,
      logs: () => output.join(''),
      workers: () => workers.map((w) => ({ pid: w.pid ?? -1, running: w.exitCode === null && w.signalCode === null })),
      async signalWorker(index, signal = 'SIGTERM') {
        const worker = workers[index];
        if (worker.exitCode !== null) return worker.exitCode;
        const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
        worker.kill(signal);
        return exited;
      },
      async stop() {
        await Promise.all(workers.map((w) => stopChild(w)));
        await backend.stop();
      },
    };
  } catch (error) {
    await Promise.all(workers.map((w) => stopChild(w, 'SIGKILL')));
    await backend.stop();
    throw error;
  }
}

export interface InProcessStack extends Stack {
  deps: Deps;
  /** The app itself, for tests that look at what its routes keep (queryCachesOf). */
  app: Server;
  /** Log records the app wrote (parsed JSON lines). */
  records: Array<Record<string, unknown>>;
}

/**
 * createApp in this process on a random port, against the real snapshot and the real metering process.
 * `wrapSnapshot` lets a test put a fault in front of the real snapshot; `now` injects the routes' clock, and
 * the meter's too with `meterOnClock` (the UTC-day rollover of quotas: the metering process, whose clock
 * cannot be injected, accepts a day either side of its own, so the worker may name the next day).
 */
export async function startInProcessStack(
  options: { now?: () => number; meterOnClock?: boolean; wrapSnapshot?: (real: Snapshot) => Snapshot } = {},
): Promise<InProcessStack> {
  const backend = await startBackend();
  const snapshotPath = testSnapshotPath();
  const config = readApiConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    NATS_URL: backend.natsUrl,
    DATA_DIR: backend.dataDir,
    SNAPSHOT_PATH: snapshotPath,
    TRUST_PROXY: '127.0.0.1',
  });
  const records: Array<Record<string, unknown>> = [];
  const log: Logger = {
    info: (fields) => records.push({ level: 'info', ...fields }),
    error: (fields) => records.push({ level: 'error', ...fields }),
    request: (method, route, status, ms, keyPrefix) =>
      records.push({ level: 'info', msg: 'request', method, route, status, ms, ...(keyPrefix ? { keyPrefix } : {}) }),
    flush: () => undefined,
  };
  const real = openSnapshot(snapshotPath);
  const snapshot = options.wrapSnapshot ? options.wrapSnapshot(real) : real;
  const now = options.now ?? Date.now;
  // Unless asked, the meter keeps the real clock: the metering process counts days by its own.
  const meter = await connectMeter({ natsUrl: backend.natsUrl, natsAuth: natsAuthFor(backend.dataDir, 'api'), workerName: `test-${process.pid}`, dataDir: backend.dataDir, ...(options.meterOnClock ? { now } : {}) });
  const deps: Deps = { config, snapshot, meter, log, stats: new WorkerCounters(), now };
  const app = createApp(deps);
  await app.listen(0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${app.port}`;
  return {
    ...backend,
    ...stackHelpers(baseUrl, backend),
    baseUrl,
    port: app.port,
    snapshotPath,
    deps,
    app,
    records,
    logs: () => records.map((r) => JSON.stringify(r)).join('\n'),
    signalWorker: () => Promise.reject(new Error('the in-process stack has no worker processes')),
    workers: () => [],
    async stop() {
      await closeApp(app, 2_000);
      await meter.close();
      real.close();
      await backend.stop();
    },
  };
}
