// The README's commands against the stack `npm start` runs (pm2-runtime in the foreground, pm2 home
// $DATA_DIR/pm2), run as a new user would: with DATA_DIR only, no PM2_HOME and no ports of their own. Each finds
// that stack, none starts a pm2 daemon of its own (HOME is a temp directory, so ~/.pm2 would show one), and
// each exits non-zero when there is no stack to act on.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

import { findStack, stackProcesses } from '../../services/shared/running-stack.ts';
import { startBlast } from '../support/blast.ts';
import { freePort } from '../support/free-port.ts';
import { newDataDir, waitHealthy } from '../support/pm2-stack.ts';

import type { ChildProcess } from 'node:child_process';

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A README command (`npm run <script> -- …` runs `tsx <file> …`), with its exit code and output. */
async function command(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<Run> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, ['--import', 'tsx', file, ...args], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const show = (r: Run) => `exit ${r.code}\n--- stdout\n${r.stdout.slice(-3000)}\n--- stderr\n${r.stderr.slice(-3000)}`;

describe('npm start and the README commands', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'dict-home-'));
  const dataDir = newDataDir();
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'dict-nostack-'));
  let start: ChildProcess | undefined;
  let output = '';
  let baseUrl = '';
  /** What a user's shell has: their DATA_DIR, a HOME, nothing pointing at pm2 or the ports. */
  const user = (dir: string): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir, HOME: home };
    for (const name of ['PM2_HOME', 'NATS_URL', 'NATS_PORT', 'PORT', 'METRICS_PORT', 'SNAPSHOT_PATH']) delete env[name];
    return env;
  };
  const pm2Home = path.join(dataDir, 'pm2');
  // Through the same finder as the commands: the pm2 CLI run on a home whose daemon is gone would start one.
  const jlist = async () => {
    const stack = await findStack(dataDir);
    if (!stack) throw new Error(`the npm start stack is not running:\n${output.slice(-3000)}`);
    return stackProcesses(stack, { ...process.env, HOME: home });
  };

  before(async () => {
    const port = await freePort();
    const env = {
      ...user(dataDir),
      PORT: String(port),
      HOST: '127.0.0.1',
      NATS_PORT: String(await freePort()),
      METRICS_PORT: String(await freePort()),
      API_WORKERS: '2',
      // Every request logged and small files: the rotation under pm2-runtime is seen within seconds.
      REQUEST_LOG: 'all',
      LOG_MAX_MB: '1',
    };
    // Its own process group: pm2-runtime and everything it runs are stopped together at the end.
    start = spawn('bash', ['scripts/start.sh'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    start.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    start.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    baseUrl = `http://127.0.0.1:${port}`;
    try {
      await waitHealthy(baseUrl, 180_000);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${output.slice(-5000)}`);
    }
  });
  after(async () => {
    if (start?.pid !== undefined) {
      // As Ctrl-C does: the whole group is signalled, and pm2-runtime stops every process it runs. Whatever is
      // still alive after that is killed, one by one (an app pm2 runs may sit in a group of its own).
      const pids = [start.pid];
      try {
        pids.push(Number(fs.readFileSync(path.join(pm2Home, 'pm2.pid'), 'utf8')), ...(await jlist()).map((p) => p.pid));
      } catch {
        // the stack never came up
      }
      const alive = () => pids.filter((pid) => pid > 0 && fs.existsSync(`/proc/${pid}`));
      try {
        process.kill(-start.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      for (let i = 0; i < 150 && alive().length > 0; i++) await sleep(200);
      for (const pid of alive()) process.kill(pid, 'SIGKILL');
    }
    for (const dir of [home, dataDir, elsewhere]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('npm start - runs its stack with the pm2 home $DATA_DIR/pm2, and a second npm start for that DATA_DIR refuses', async () => {
    assert.match(output, new RegExp(`PM2_HOME=${pm2Home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const names = (await jlist()).map((p) => p.name).sort();
    assert.deepEqual(names, ['api', 'api', 'logrotate', 'metering', 'nats']);
    const second = await new Promise<Run>((resolve) => {
      const child = spawn('bash', ['scripts/start.sh'], { cwd: ROOT, env: { ...user(dataDir), PORT: String(1) } });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      child.once('exit', (code) => resolve({ code: code ?? 1, stdout: out, stderr: '' }));
    });
    assert.equal(second.code, 1, show(second));
    assert.match(second.stdout, /a stack is already running for DATA_DIR/);
  });

  it('npm run pm2 - runs pm2 against that stack; with no stack for DATA_DIR it refuses and starts no daemon', async () => {
    const listed = await command('scripts/pm2.ts', ['jlist'], user(dataDir));
    assert.equal(listed.code, 0, show(listed));
    assert.equal((JSON.parse(listed.stdout.slice(listed.stdout.indexOf('['))) as unknown[]).length, 5);
    const none = await command('scripts/pm2.ts', ['jlist'], user(elsewhere));
    assert.equal(none.code, 1, show(none));
    assert.match(none.stderr, /no stack is running for DATA_DIR=/);
    assert.ok(!fs.existsSync(path.join(elsewhere, 'pm2')), 'no pm2 home made');
  });

  it('npm run ops - reaches the metering of that stack with DATA_DIR alone; with no stack it exits 3', async () => {
    const res = await fetch(`${baseUrl}/api/v1/developers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Found', email: 'found@example.org' }),
    });
    assert.equal(res.status, 201, await res.text());
    const listed = await command('services/metering/ops/main.ts', ['developers', 'list', '--json'], user(dataDir));
    assert.equal(listed.code, 0, show(listed));
    assert.deepEqual((JSON.parse(listed.stdout) as { developers: { email: string }[] }).developers.map((d) => d.email), ['found@example.org']);
    const none = await command('services/metering/ops/main.ts', ['developers', 'list'], user(elsewhere));
    assert.equal(none.code, 3, show(none));
    assert.match(none.stderr, /no stack is running for DATA_DIR=/);
  });

  it('npm start - log files past LOG_MAX_MB are rotated, and pm2-runtime runs on and writes into them', async () => {
    const res = await fetch(`${baseUrl}/api/v1/developers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rotate', email: 'rotate@example.org' }),
    });
    const { apiKey } = (await res.json()) as { apiKey: string };
    const raised = await command('services/metering/ops/main.ts', ['developers', 'set-plan', 'rotate@example.org', 'institution', '--all-keys'], user(dataDir));
    assert.equal(raised.code, 0, show(raised));
    for (let i = 0; i < 10; i++) await (await fetch(`${baseUrl}/api/v1/stats`, { headers: { 'x-api-key': apiKey } })).arrayBuffer();
    const logs = path.join(pm2Home, 'logs');
    const rotated = () => fs.readdirSync(logs).filter((n) => /^api-out-\d+\.log\.1$/.test(n));
    const blast = startBlast({ baseUrl, paths: ['/api/v1/stats'], keys: [apiKey], connections: 16 });
    for (let i = 0; i < 120 && rotated().length === 0; i++) await sleep(500);
    await blast.stop();
    assert.ok(rotated().length > 0, fs.readdirSync(logs).join(', '));
    const rotation = fs.readFileSync(path.join(logs, fs.readdirSync(logs).find((n) => /^logrotate-out.*\.log$/.test(n)) ?? ''), 'utf8');
    assert.match(rotation, /"msg":"rotated","files":\["api-out-\d+\.log"/, rotation);
    const after = await fetch(`${baseUrl}/healthz`);
    assert.equal(after.status, 200, 'the stack runs on after the rotation');
    await sleep(1_500);
    const live = fs.readdirSync(logs).filter((n) => /^api-out-\d+\.log$/.test(n)).map((n) => fs.statSync(path.join(logs, n)).size);
    assert.ok(live.some((size) => size > 0), `pm2-runtime appends on into the emptied files: ${JSON.stringify(live)}`);
  });

  it('npm run publish:snapshot - switches the snapshot and reloads that stack\'s workers, exit 0', async () => {
    const snapshots = path.join(dataDir, 'snapshots');
    const before = fs.realpathSync(path.join(snapshots, 'current.sqlite'));
    // The small sample corpus: a quick build (test/run/publish.test.ts publishes the real corpora under load).
    const published = await command('scripts/publish-snapshot.ts', ['--corpora', 'corpora/sample'], user(dataDir));
    assert.equal(published.code, 0, show(published));
    assert.notEqual(fs.realpathSync(path.join(snapshots, 'current.sqlite')), before);
    assert.match(published.stdout, /reloaded 2 API workers/);
    const api = (await jlist()).filter((p) => p.name === 'api');
    assert.deepEqual(api.map((p) => [p.pm2_env.status, p.pm2_env.restart_time >= 1]), [['online', true], ['online', true]]);
  });

  it('npm run publish:snapshot - with no stack, or a stack without API workers, publishes nothing and exits 1', async () => {
    const none = await command('scripts/publish-snapshot.ts', [], user(elsewhere));
    assert.equal(none.code, 1, show(none));
    assert.match(none.stderr, /no stack is running for DATA_DIR=.*Nothing was published; pass --no-reload/s);
    assert.deepEqual(fs.readdirSync(path.join(elsewhere, 'snapshots')), [], 'nothing built or switched');
    assert.ok(!fs.existsSync(path.join(elsewhere, 'pm2')), 'no pm2 home made');

    const stopped = await command('scripts/pm2.ts', ['stop', 'api'], user(dataDir));
    assert.equal(stopped.code, 0, show(stopped));
    const current = fs.realpathSync(path.join(dataDir, 'snapshots', 'current.sqlite'));
    const refused = await command('scripts/publish-snapshot.ts', [], user(dataDir));
    assert.equal(refused.code, 1, show(refused));
    assert.match(refused.stderr, /runs no API worker\. Nothing was published/);
    assert.equal(fs.realpathSync(path.join(dataDir, 'snapshots', 'current.sqlite')), current);
  });

  it('README commands - none started a pm2 daemon of its own (no ~/.pm2)', () => {
    assert.ok(!fs.existsSync(path.join(home, '.pm2')), `found ${path.join(home, '.pm2')}`);
  });
});
