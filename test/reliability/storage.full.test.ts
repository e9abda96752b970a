// A full DATA_DIR, for real: metering.db and the host's allowance on a 2 MiB tmpfs filled to its last byte.
// /healthz says 503 degraded from the first failed commit (its cause on the metrics port only), the refusals are
// the spec's internal_error, metering neither exits nor logs more than once however many requests fail, the
// worker logs its own ledger's state change once, and everything recovers by itself once space is freed. Over
// the real stack (nats-server, metering, an API worker). Needs mount rights; skipped without them.
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
  snapshot: unknown;
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

  /** The metering process's own series on its metrics port (the port it logged). */
  const meteringMetrics = async (): Promise<string> => {
    const port = /"msg":"metrics at GET \/metrics"[^\n]*"port":(\d+)/.exec(stack.meteringLogs())?.[1];
    assert.ok(port, stack.meteringLogs());
    return (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  };

  it('a full DATA_DIR - 503 from the first failed commit, no exit, the cause logged once, and it recovers by itself', async () => {
    const healthy = await health();
    assert.equal(healthy.status, 200, healthy.text);
    const fresh = await stack.register();

    const filler = tmpfs.fill();
    const first = await register();
    assert.match(`${first.status} ${first.text}`, /^500 \{"error":\{"code":"internal_error"/);
    // From the first failed commit on, not after a probe: no polling here.
    const full = await health();
    assert.equal(full.status, 503, full.text);
    assert.deepEqual(full.body, { status: 'degraded', snapshot: full.body.snapshot }, 'no storage detail in public');
    assert.match(await meteringMetrics(), /dict_metering_can_commit\{[^}]*\} 0/);
    assert.match(await meteringMetrics(), /dict_metering_storage_error_info\{[^}]*error="SQLITE_FULL: database or disk is full"/);

    const failures: string[] = [];
    for (let i = 0; i < 8; i++) {
      const reply = await register();
      failures.push(`${reply.status} ${reply.text}`);
    }
    // The first request of a key that no worker holds a lease for needs a commit too.
    const leased = await fetch(`${stack.baseUrl}/api/v1/languages`, { headers: { 'x-api-key': fresh.apiKey } });
    failures.push(`${leased.status} ${await leased.text()}`);
    for (const failure of failures) assert.match(failure, /^500 \{"error":\{"code":"internal_error"/, failures.join('\n'));
    assert.equal((await health()).status, 503);

    const meteringLines = stack.meteringLogs().split('\n').filter((l) => l.includes('"level":"error"'));
    assert.equal(meteringLines.length, 1, `metering logged the cause once:\n${stack.meteringLogs()}`);
    assert.match(meteringLines[0], /cannot commit.*SQLITE_FULL/, meteringLines[0]);
    assert.doesNotMatch(stack.meteringLogs(), /exiting/, 'metering did not exit');
    // The worker's share of the disk (the host's allowance in DATA_DIR) fails too: said once, never per request.
    const workerLines = stack.logs().split('\n').filter((l) => l.includes('"level":"error"'));
    assert.ok(workerLines.length <= 1, `the API worker logged nothing per request:\n${stack.logs()}`);
    for (const line of workerLines) assert.match(line, /host allowance cannot commit/, line);

    fs.rmSync(filler);
    const back = await until('healthy', health, (h) => h.status === 200);
    assert.equal(back.status, 200, back.text);
    assert.equal(back.body.status, 'ok', back.text);
    const registered = await register();
    assert.equal(registered.status, 201, registered.text);
    const served = await fetch(`${stack.baseUrl}/api/v1/languages`, { headers: { 'x-api-key': fresh.apiKey } });
    assert.equal(served.status, 200, await served.text());
    assert.match(stack.meteringLogs(), /metering\.db commits again/);
    assert.match(await meteringMetrics(), /dict_metering_can_commit\{[^}]*\} 1/);
    if (workerLines.length) assert.match(stack.logs(), /host allowance commits again/);
  });
});
