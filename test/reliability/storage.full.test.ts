// A full DATA_DIR, for real: metering.db on a 2 MiB tmpfs filled to its last byte. /healthz reports that
// metering cannot commit (503, SQLite's cause), the refusals are the spec's internal_error, metering logs the
// cause once however many requests fail (as does the API worker, whose host allowance shares the disk), and
// everything recovers by itself once space is freed. Over the real stack (nats-server, metering, an API
// worker). Needs mount rights; skipped without them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { fakeClientIp, startStack } from '../support/stack.ts';
import { mountTmpfs } from '../support/tmpfs.ts';

import type { Stack } from '../support/stack.ts';
import type { Tmpfs } from '../support/tmpfs.ts';

const mounted = mountTmpfs(2 * 1024 * 1024);
const skip = typeof mounted === 'string' ? mounted : false;

interface Health {
  status: string;
  metering: { reachable: boolean; canCommit?: boolean; storageError?: string };
}

describe('a full DATA_DIR', { skip }, () => {
  let tmpfs: Tmpfs;
  let stack: Stack;
  before(async () => {
    tmpfs = mounted as Tmpfs;
    stack = await startStack({ workers: 1, dataDir: tmpfs.dir });
  });
  after(async () => {
    await stack?.stop();
    tmpfs?.unmount();
  });

  const health = async (): Promise<{ status: number; body: Health; text: string }> => {
    const res = await fetch(`${stack.baseUrl}/healthz`);
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as Health, text };
  };
  const register = async (): Promise<{ status: number; text: string }> => {
    const res = await fetch(`${stack.baseUrl}/api/v1/developers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': fakeClientIp() },
      body: JSON.stringify({ name: 'Full', email: `full-${Date.now()}-${Math.random()}@example.org` }),
    });
    return { status: res.status, text: await res.text() };
  };
  const until = async <T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (done(value) || Date.now() > deadline) return value;
      await sleep(200);
    }
  };

  it('a full DATA_DIR - /healthz says metering cannot commit, the cause is logged once, and it recovers by itself', async () => {
    const healthy = await health();
    assert.equal(healthy.status, 200, healthy.text);
    const fresh = await stack.register();

    const filler = tmpfs.fill();
    const failures: string[] = [];
    for (let i = 0; i < 8; i++) {
      const reply = await register();
      failures.push(`${reply.status} ${reply.text}`);
    }
    // The first request of a key that no worker holds a lease for needs a commit too.
    const first = await fetch(`${stack.baseUrl}/api/v1/languages`, { headers: { 'x-api-key': fresh.apiKey } });
    failures.push(`${first.status} ${await first.text()}`);
    for (const failure of failures) assert.match(failure, /^500 \{"error":\{"code":"internal_error"/, failures.join('\n'));

    const full = await until('degraded', health, (h) => h.status === 503);
    assert.equal(full.status, 503, full.text);
    assert.equal(full.body.status, 'degraded', full.text);
    assert.equal(full.body.metering.reachable, true, full.text);
    assert.equal(full.body.metering.canCommit, false, full.text);
    assert.match(full.body.metering.storageError ?? '', /^SQLITE_FULL: database or disk is full/, full.text);

    const meteringLines = stack.meteringLogs().split('\n').filter((l) => l.includes('"level":"error"'));
    assert.equal(meteringLines.length, 1, `metering logged the cause once:\n${stack.meteringLogs()}`);
    assert.match(meteringLines[0], /cannot commit.*SQLITE_FULL/, meteringLines[0]);
    // The worker's share of the disk (the host's allowance in DATA_DIR) fails too: said once, never per request.
    const workerLines = stack.logs().split('\n').filter((l) => l.includes('"level":"error"'));
    assert.ok(workerLines.length <= 1, `the API worker logged nothing per request:\n${stack.logs()}`);
    for (const line of workerLines) assert.match(line, /host allowance cannot commit/, line);

    fs.rmSync(filler);
    const back = await until('healthy', health, (h) => h.status === 200);
    assert.equal(back.status, 200, back.text);
    assert.deepEqual(back.body.metering, { reachable: true, canCommit: true });
    const registered = await register();
    assert.equal(registered.status, 201, registered.text);
    const served = await fetch(`${stack.baseUrl}/api/v1/languages`, { headers: { 'x-api-key': fresh.apiKey } });
    assert.equal(served.status, 200, await served.text());
    assert.match(stack.meteringLogs(), /metering\.db commits again/);
    if (workerLines.length) assert.match(stack.logs(), /host allowance commits again/);
  });
});
