// Test helpers for metering: the service in-process (injected clock) or as a child process (kill -9).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { connect, type NatsConnection } from 'nats';

import { connectMeter } from '../../services/api/metering-client/nats-meter.ts';
import type { Meter } from '../../services/api/metering-client/meter.ts';
import { openMeteringDb, type Db } from '../../services/metering/db/open.ts';
import { silentLog } from '../../services/metering/log.ts';
import { startMeteringService, type MeteringService } from '../../services/metering/service.ts';
import { call } from '../../services/shared/metering-protocol/client.ts';
import { RPC } from '../../services/shared/metering-protocol/protocol.ts';
import { tempDir as makeTempDir } from '../support/temp-dir.ts';

/** A fresh directory for a metering test, removed when the test file's process exits. */
export function tempDir(label: string): string {
  return makeTempDir(`metering-${label}-`);
}

export interface InProcessMetering {
  dataDir: string;
  db: Db;
  nc: NatsConnection;
  service: MeteringService;
  stop(): Promise<void>;
}

/** The metering service in this process, on its own NATS connection, with an injected clock. */
export async function startMeteringInProcess(
  natsUrl: string,
  now?: () => number,
  dataDir = tempDir('svc'),
  onFatalStorageError?: (error: unknown) => void,
): Promise<InProcessMetering> {
  const db = openMeteringDb(path.join(dataDir, 'metering.db'));
  const nc = await connect({ servers: natsUrl, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  const service = await startMeteringService({ nc, db, log: silentLog, now, onFatalStorageError });
  let stopped = false;
  return {
    dataDir,
    db,
    nc,
    service,
    async stop() {
      if (stopped) return;
      stopped = true;
      await service.stop();
      await nc.drain().catch(() => undefined);
      db.close();
    },
  };
}

export interface ChildMetering {
  dataDir: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr. */
  output(): string;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/** `node --import tsx services/metering/main.ts` against `natsUrl`, answering pings before it returns. */
export async function spawnMetering(natsUrl: string, dataDir = tempDir('child'), env: Record<string, string> = {}): Promise<ChildMetering> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/metering/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    // Metrics on any free port: concurrent test files each run a metering process.
    env: { ...process.env, NATS_URL: natsUrl, DATA_DIR: dataDir, METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const waitExit = () => (exited() ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r())));
  await waitUntilAnswering(natsUrl, () => (exited() ? output : undefined));
  return {
    dataDir,
    child,
    output: () => output,
    async kill9() {
      const done = waitExit();
      child.kill('SIGKILL');
      await done;
    },
    async stop() {
      const done = waitExit();
      child.kill('SIGTERM');
      await done;
    },
  };
}

async function waitUntilAnswering(natsUrl: string, died: () => string | undefined): Promise<void> {
  const nc = await connect({ servers: natsUrl });
  try {
    for (let i = 0; i < 200; i++) {
      const dead = died();
      if (dead !== undefined) throw new Error(`metering process exited:\n${dead}`);
      try {
        await call(nc, RPC.ping, {}, { timeoutMs: 200 });
        return;
      } catch {
        await sleep(50);
      }
    }
    throw new Error('metering process did not answer pings');
  } finally {
    await nc.close();
  }
}

/**
 * A worker's Meter (its own NATS connection), closed after the test. Meters given the same `hostDir` are
 * workers of one host (they share its allowance); by default each is a host of its own.
 */
export async function workerMeter(natsUrl: string, name: string, now?: () => number, hostDir = tempDir('host')): Promise<Meter> {
  return connectMeter({ natsUrl, workerName: name, dataDir: hostDir, now });
}

let ipCounter = 0;
/** A distinct client address per registration, so that tests do not trip the key-creation throttle. */
export function freshIp(): string {
  ipCounter++;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export async function registerKey(meter: Meter, email = `dev${Date.now()}${Math.random()}@example.org`) {
  return meter.register({ name: 'Test Developer', email }, freshIp());
}
