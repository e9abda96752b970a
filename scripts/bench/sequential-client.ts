// What a client that sends one request at a time pays per request for exact X-RateLimit counting (a key not at
// volume: each request is counted by the metering service): its latency, and the metering process's CPU per
// request. Self-contained: starts nats-server and the metering process, and an API app in this process over a
// snapshot. A key at volume is served from leased blocks: the bench's http section measures that.
//   node --import tsx scripts/bench/sequential-client.ts [--requests 2000] [--path /api/v1/stats] [--snapshot FILE]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

import { connect } from 'nats';

import { closeApp, createApp } from '../../services/api/app.ts';
import { WorkerCounters } from '../../services/api/metrics/worker-stats.ts';
import { readApiConfig } from '../../services/api/config.ts';
import { connectMeter } from '../../services/api/metering-client/nats-meter.ts';
import { openSnapshot } from '../../snapshot/reader/reader.ts';
import { call } from '../../services/shared/metering-protocol/client.ts';
import { OPS } from '../../services/shared/metering-protocol/ops-protocol.ts';
import { RPC } from '../../services/shared/metering-protocol/protocol.ts';

import type { ChildProcess } from 'node:child_process';
import type { Deps, Logger } from '../../services/api/deps.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Requests sent first in each mode and not measured (connections, JIT, the first lease). */
const WARMUP_REQUESTS = 200;
const CLOCK_TICKS_PER_SECOND = 100;

export interface SequentialClientOptions {
  snapshotPath: string;
  /** Measured requests per mode. */
  requests: number;
  /** A metered GET path. */
  path: string;
}

export interface ModeFigures {
  mode: 'exact';
  requests: number;
  medianMs: number;
  p90Ms: number;
  p99Ms: number;
  meanMs: number;
  /** CPU time of the metering process per measured request. */
  meteringCpuMsPerRequest: number;
}

export async function measureSequentialClient(options: SequentialClientOptions): Promise<ModeFigures[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dict-sequential-'));
  const children: ChildProcess[] = [];
  try {
    const natsPort = await freePort();
    children.push(spawn('nats-server', ['-a', '127.0.0.1', '-p', String(natsPort)], { stdio: 'ignore' }));
    const natsUrl = `nats://127.0.0.1:${natsPort}`;
    const metering = spawn(process.execPath, ['--import', 'tsx', 'services/metering/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, NATS_URL: natsUrl, DATA_DIR: dataDir },
      stdio: 'ignore',
    });
    children.push(metering);
    const nc = await waitForMetering(natsUrl);
    const figures: ModeFigures[] = [];
    for (const mode of ['exact'] as const) {
      figures.push(await measureMode(mode, { ...options, natsUrl, dataDir, meteringPid: metering.pid ?? 0, nc }));
    }
    await nc.close();
    return figures;
  } finally {
    for (const child of children.reverse()) await stop(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measureMode(
  mode: 'exact',
  o: SequentialClientOptions & { natsUrl: string; dataDir: string; meteringPid: number; nc: Awaited<ReturnType<typeof connect>> },
): Promise<ModeFigures> {
  const config = readApiConfig({ PORT: '0', HOST: '127.0.0.1', NATS_URL: o.natsUrl, DATA_DIR: o.dataDir, SNAPSHOT_PATH: o.snapshotPath });
  const meter = await connectMeter({ natsUrl: o.natsUrl, workerName: `sequential-${mode}`, dataDir: o.dataDir });
  const snapshot = openSnapshot(o.snapshotPath);
  const quiet: Logger = { info: () => undefined, error: () => undefined, request: () => undefined, flush: () => undefined };
  const deps: Deps = { config, snapshot, meter, log: quiet, now: Date.now, stats: new WorkerCounters() };
  const app = createApp(deps);
  await app.listen(0, '127.0.0.1');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    // A key of its own per mode, on the institution plan so that the day's allowance never runs out.
    const email = `sequential-${mode}-${Date.now()}@example.org`;
    const { apiKey } = await call(o.nc, RPC.register, { input: { name: 'Sequential client', email }, clientIp: '10.0.0.1' });
    await call(o.nc, OPS.developersSetPlan, { email, plan: 'institution' });
    const get = () => request(agent, app.port, o.path, apiKey);
    for (let i = 0; i < WARMUP_REQUESTS; i++) await get();
    const cpuBefore = cpuMs(o.meteringPid);
    const ms: number[] = [];
    for (let i = 0; i < o.requests; i++) {
      const started = performance.now();
      await get();
      ms.push(performance.now() - started);
    }
    const cpu = cpuMs(o.meteringPid) - cpuBefore;
    ms.sort((a, b) => a - b);
    const at = (q: number) => round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]);
    return {
      mode,
      requests: ms.length,
      medianMs: at(0.5),
      p90Ms: at(0.9),
      p99Ms: at(0.99),
      meanMs: round(ms.reduce((a, b) => a + b, 0) / ms.length),
      meteringCpuMsPerRequest: round(cpu / ms.length),
    };
  } finally {
    agent.destroy();
    await closeApp(app, 1_000);
    await meter.close();
    snapshot.close();
  }
}

function request(agent: http.Agent, port: number, urlPath: string, apiKey: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get({ agent, host: '127.0.0.1', port, path: urlPath, headers: { 'x-api-key': apiKey } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${urlPath}: ${res.statusCode}`))));
    });
    req.on('error', reject);
  });
}

/** User and system CPU of a process so far (/proc/<pid>/stat fields 14 and 15, in clock ticks). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

async function waitForMetering(natsUrl: string): Promise<Awaited<ReturnType<typeof connect>>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const nc = await connect({ servers: natsUrl });
      for (;;) {
        try {
          await call(nc, RPC.ping, {});
          return nc;
        } catch (error) {
          if (Date.now() > deadline) throw error;
          await sleep(100);
        }
      }
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '2000' },
      path: { type: 'string', default: '/api/v1/stats' },
      snapshot: { type: 'string', default: path.join(ROOT, '.tmp/test-snapshot.sqlite') },
    },
  });
  const snapshotPath = path.resolve(values.snapshot);
  if (!fs.existsSync(snapshotPath)) {
    throw new Error(`no snapshot at ${snapshotPath}: build one with node --import tsx snapshot/compiler/main.ts --out ${snapshotPath}`);
  }
  const figures = await measureSequentialClient({ snapshotPath, requests: Number(values.requests), path: values.path });
  console.log(`one request at a time, ${values.requests} requests to ${values.path}, each counted by metering, on ${os.cpus().length} cores`);
  console.table(figures);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.stack : String(error));
    process.exit(1);
  });
}
