// The production stack under pm2 (bundled dist/, ecosystem.config.cjs) in a temp DATA_DIR with its own
// PM2_HOME, PORT and NATS_PORT, for tests of operations: publish, reload, faults. Needs `node scripts/bundle.mjs`.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

import { downloadsDirOf } from '../../snapshot/format/downloads.ts';
import { strangeListeners } from './listeners.ts';
import { freePort } from './free-port.ts';
import { testSnapshotPath } from './snapshot.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Pm2Stack {
  baseUrl: string;
  /** The metering process's GET /metrics for the whole stack. */
  metricsUrl: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** Runs the pm2 CLI against this stack's daemon. */
  pm2(...args: string[]): Promise<string>;
  /** Runs `npm run ops -- …` against this stack; returns stdout. */
  ops(...args: string[]): Promise<string>;
  /** Registers a developer and returns the key (raised to `plan` through the ops CLI when given). */
  newKey(email: string, plan?: 'team' | 'institution'): Promise<string>;
  stop(): Promise<void>;
}

export interface Pm2StackOptions {
  workers?: number;
  /** Variables the ecosystem reads (REQUEST_LOG, LOG_MAX_MB, …), over the test's own. */
  env?: NodeJS.ProcessEnv;
}

/** A temp DATA_DIR whose current snapshot is a copy of the test snapshot. */
export function newDataDir(): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dict-pm2-'));
  const snapshots = path.join(dataDir, 'snapshots');
  fs.mkdirSync(snapshots, { recursive: true });
  fs.copyFileSync(testSnapshotPath(), path.join(snapshots, 'snapshot-initial.sqlite'));
  fs.cpSync(downloadsDirOf(testSnapshotPath()), downloadsDirOf(path.join(snapshots, 'snapshot-initial.sqlite')), { recursive: true });
  // The build's SHA-256 beside it, which the workers check the file against.
  const sidecar = `${testSnapshotPath()}.sha256`;
  if (fs.existsSync(sidecar)) fs.copyFileSync(sidecar, path.join(snapshots, 'snapshot-initial.sqlite.sha256'));
  fs.symlinkSync('snapshot-initial.sqlite', path.join(snapshots, 'current.sqlite'));
  return dataDir;
}

export async function startPm2Stack(options: Pm2StackOptions = {}): Promise<Pm2Stack> {
  const dataDir = newDataDir();

  // pm2 runs production's ecosystem, which listens on fixed ports: chosen free here, bound later.
  const port = await freePort();
  const natsPort = await freePort();
  const metricsPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PM2_HOME: path.join(dataDir, 'pm2'),
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    NATS_PORT: String(natsPort),
    METRICS_PORT: String(metricsPort),
    API_WORKERS: String(options.workers ?? 2),
    ...options.env,
  };
  delete env.NATS_URL;
  delete env.SNAPSHOT_PATH;
  const pm2 = async (...args: string[]) =>
    (await run(path.join(ROOT, 'node_modules/.bin/pm2'), args, { env, cwd: ROOT })).stdout;
  const ops = async (...args: string[]) =>
    (await run(process.execPath, ['--import', 'tsx', 'services/metering/ops/main.ts', ...args], { env, cwd: ROOT }))
      .stdout;
  const baseUrl = `http://127.0.0.1:${port}`;

  await pm2('start', 'ecosystem.config.cjs');
  await waitHealthy(baseUrl, 30_000);
  // Meanwhile a concurrent test file may have bound one of them: the API workers would then share the HTTP
  // port with it (SO_REUSEPORT), or this stack's NATS clients would reach its nats-server. Refuse to run so.
  const pids = (JSON.parse(await pm2('jlist')) as { pid: number }[]).map((app) => app.pid);
  for (const [what, p] of [['HTTP', port], ['NATS', natsPort]] as const) {
    const strangers = strangeListeners(p, pids);
    if (strangers.length > 0) {
      await pm2('kill').catch(() => undefined);
      throw new Error(`the ${what} port ${p} also has a listener outside this pm2 stack (socket inodes ${strangers.join(', ')})`);
    }
  }

  return {
    baseUrl,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    dataDir,
    env,
    pm2,
    ops,
    async newKey(email, plan) {
      const res = await fetch(`${baseUrl}/api/v1/developers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Test', email }),
      });
      const body = (await res.json()) as { apiKey: string };
      if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(body)}`);
      if (plan) await ops('developers', 'set-plan', email, plan, '--all-keys');
      return body.apiKey;
    },
    async stop() {
      await pm2('kill').catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function waitHealthy(baseUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${baseUrl}/healthz not healthy within ${timeoutMs} ms`);
    await sleep(200);
  }
}
