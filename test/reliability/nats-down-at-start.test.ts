// A worker started while NATS is down listens at once: the website and /healthz answer (503 down), metered routes
// and registration fail closed with internal_error, logged once rather than with a stack per request; once NATS
// and metering come up it serves metered requests without a restart. Real worker process, nats-server, metering.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { freePort } from '../support/free-port.ts';
import { launch } from '../support/nats.ts';
import { testSnapshotPath } from '../support/snapshot.ts';
import { tempDir } from '../support/temp-dir.ts';
import { spawnMetering, type ChildMetering } from '../metering/support.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const STARTUP_MS = 20_000;

describe('a worker started while NATS is down', () => {
  const children: ChildProcess[] = [];
  let metering: ChildMetering | undefined;
  after(async () => {
    await metering?.stop();
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  });

  test('a worker started while NATS is down - listens, website up, metered routes fail closed, then recovers', async () => {
    const natsPort = await freePort();
    const port = await freePort();
    const dataDir = tempDir('nats-down');
    let output = '';
    const worker = spawn(process.execPath, ['--import', 'tsx', 'services/api/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NATS_URL: `nats://127.0.0.1:${natsPort}`, DATA_DIR: dataDir, SNAPSHOT_PATH: testSnapshotPath(), REQUEST_LOG: 'errors' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(worker);
    worker.stdout.on('data', (c: Buffer) => (output += c.toString()));
    worker.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + STARTUP_MS;
    while (!output.includes('"msg":"listening"') && worker.exitCode === null && Date.now() < deadline) await sleep(50);
    assert.match(output, /"msg":"listening"/, `the worker listens with NATS down:\n${output}`);

    const base = `http://127.0.0.1:${port}`;
    const home = await fetch(`${base}/`);
    assert.equal(home.status, 200, 'the website is up');
    const health = await fetch(`${base}/healthz`);
    assert.equal(health.status, 503);
    assert.equal(((await health.json()) as { status: string }).status, 'down');
    const key = `svc_live_${'0'.repeat(40)}`;
    for (let i = 0; i < 5; i++) {
      const metered = await fetch(`${base}/api/v1/stats`, { headers: { 'x-api-key': key } });
      assert.equal(metered.status, 500);
      assert.equal(((await metered.json()) as { error: { code: string } }).error.code, 'internal_error');
    }
    const registration = await fetch(`${base}/api/v1/developers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Down', email: 'down@example.org' }),
    });
    assert.equal(registration.status, 500, await registration.text());
    const errors = output.split('\n').filter((l) => l.includes('"level":"error"'));
    assert.equal(errors.length, 1, `one line for the outage, none per request:\n${errors.join('\n')}`);
    assert.match(errors[0], /metering unreachable/);
    assert.doesNotMatch(output, /"stack"/);

    // NATS and metering come up: the same worker serves metered requests.
    children.push((await launch(natsPort)).child);
    metering = await spawnMetering(`nats://127.0.0.1:${natsPort}`, dataDir);
    const registered = await (async () => {
      for (const until = Date.now() + STARTUP_MS; Date.now() < until; await sleep(200)) {
        const res = await fetch(`${base}/api/v1/developers`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Up', email: 'up@example.org' }),
        });
        if (res.status === 201) return (await res.json()) as { apiKey: string };
      }
      throw new Error(`registration never succeeded:\n${output}`);
    })();
    const served = await fetch(`${base}/api/v1/stats`, { headers: { 'x-api-key': registered.apiKey } });
    assert.equal(served.status, 200, await served.text());
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
    assert.match(output, /metering answers again/);
  });
});
