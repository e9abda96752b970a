// The operator CLI end to end: spawned as `npm run ops` would run it, against a running metering service.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';

import Database from 'better-sqlite3';

import { connect } from 'nats';

import { VOLUME_WINDOW_MS } from '../../services/api/metering-client/endpoint-lease.ts';
import type { Meter } from '../../services/api/metering-client/meter.ts';
import { SWEEP_INTERVAL_MS } from '../../services/api/metering-client/sweeper.ts';
import { InvalidApiKeyError } from '../../services/shared/domain-errors.ts';
import { call } from '../../services/shared/metering-protocol/client.ts';
import { utcDay } from '../../services/shared/metering-protocol/day.ts';
import { OPS } from '../../services/shared/metering-protocol/ops-protocol.ts';
import { startNats, type NatsHandle } from '../support/nats.ts';
import { startMeteringInProcess, tempDir, workerMeter, type InProcessMetering } from './support.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

describe('ops CLI', () => {
  let nats: NatsHandle;
  let svc: InProcessMetering;
  let meter: Meter;
  let key: { apiKey: string; keyPrefix: string };

  async function ops(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'services/metering/ops/main.ts', ...args], {
        cwd: ROOT,
        env: { ...process.env, NATS_URL: nats.url },
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  before(async () => {
    nats = await startNats();
    svc = await startMeteringInProcess(nats.url);
    meter = await workerMeter(nats.url, 'ops-a');
    key = await meter.register({ name: 'Chinua', email: 'chinua@example.org', organization: 'Press' }, '10.1.1.1');
    await meter.register({ name: 'Chinua', email: 'chinua@example.org', keyName: 'second' }, '10.1.1.1');
    await meter.register({ name: 'Wole', email: 'wole@example.org' }, '10.1.1.2');
    for (let i = 0; i < 3; i++) await meter.admit(key.apiKey, 'GET /api/v1/words');
  });
  after(async () => {
    await meter.close();
    await svc.stop();
    await nats.stop();
  });

  it('ops CLI - developers list prints a table, and JSON with --json', async () => {
    const [text, json] = await Promise.all([ops('developers', 'list'), ops('developers', 'list', '--json')]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^email\s+name\s+plan\s+status/m);
    assert.match(text.stdout, /chinua@example\.org\s+Chinua\s+free\s+active\s+2/);
    const parsed = JSON.parse(json.stdout) as { developers: { email: string }[] };
    assert.deepEqual(parsed.developers.map((d) => d.email).sort(), ['chinua@example.org', 'wole@example.org']);
  });

  it('ops CLI - developers show and keys list name the keys by prefix, never in full', async () => {
    const [show, keys] = await Promise.all([ops('developers', 'show', 'chinua@example.org'), ops('keys', 'list', 'chinua@example.org', '--json')]);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /organization\s+Press/);
    assert.ok(show.stdout.includes(key.keyPrefix));
    assert.ok(!show.stdout.includes(key.apiKey));
    const parsed = JSON.parse(keys.stdout) as { keys: { name: string; status: string }[] };
    assert.deepEqual(parsed.keys.map((k) => k.name).sort(), ['default', 'second']);
  });

  it('ops CLI - usage reports the day\'s count per key and endpoint', async () => {
    const [today, other] = await Promise.all([
      ops('usage', 'chinua@example.org', '--json'),
      ops('usage', 'chinua@example.org', '--date', '2001-01-01', '--json'),
    ]);
    const parsed = JSON.parse(today.stdout) as { date: string; rows: { keyPrefix: string; endpoint: string; used: number; leased: number }[] };
    assert.equal(parsed.date, utcDay(Date.now()));
    const row = parsed.rows.find((r) => r.keyPrefix === key.keyPrefix && r.endpoint === 'GET /api/v1/words');
    // Three requests one at a time took units of the block the host holds for the key (an eighth of the day's
    // 1,000): counted, and shown as leased until the host says what it still holds.
    assert.deepEqual(row && { used: row.used, leased: row.leased }, { used: 125, leased: 125 }, today.stdout);
    assert.deepEqual((JSON.parse(other.stdout) as { rows: unknown[] }).rows, []);
  });

  it('ops CLI - usage shows each key its own limit, and units leased to hosts and workers apart from units used', async () => {
    // A developer raised to institution, then a key issued by registration: that key is on the free plan.
    const raised = await meter.register({ name: 'Ama', email: 'ama@example.org' }, '10.1.1.4');
    assert.equal((await ops('developers', 'set-plan', 'ama@example.org', 'institution', '--all-keys')).code, 0);
    const later = await meter.register({ name: 'Ama', email: 'ama@example.org', keyName: 'later' }, '10.1.1.4');
    // Two requests at once: they share one block, which the host holds.
    await Promise.all([meter.admit(raised.apiKey, 'GET /api/v1/stats'), meter.admit(raised.apiKey, 'GET /api/v1/stats')]);
    await meter.admit(later.apiKey, 'GET /api/v1/stats');
    // Asked at once, over NATS (the CLI's start-up outlasts the second after which the worker gives the block back).
    const nc = await connect({ servers: nats.url });
    const usage = await call(nc, OPS.usage, { email: 'ama@example.org' });
    await nc.close();
    const shown = JSON.stringify(usage);
    const of = (prefix: string) => usage.rows.find((r) => r.keyPrefix === prefix);
    assert.equal(of(later.keyPrefix)?.limit, 1000, `the later key is free: ${shown}`);
    assert.equal(of(raised.keyPrefix)?.limit, 500_000, shown);
    assert.deepEqual({ used: of(later.keyPrefix)?.used, leased: of(later.keyPrefix)?.leased }, { used: 125, leased: 125 }, shown);
    const block = of(raised.keyPrefix);
    assert.ok(block && block.leased > 0 && block.used === block.leased, `the block is counted, and shown as leased: ${shown}`);
    // The host keeps its block while the key is in use that day (metering reclaims it if another holder needs
    // it): still counted and leased a second later.
    await new Promise((resolve) => setTimeout(resolve, VOLUME_WINDOW_MS + 2 * SWEEP_INTERVAL_MS + 200));
    const json = await ops('usage', 'ama@example.org', '--json');
    const settled = (JSON.parse(json.stdout) as typeof usage).rows.find((r) => r.keyPrefix === raised.keyPrefix);
    assert.deepEqual(settled && { used: settled.used, leased: settled.leased }, { used: block.used, leased: block.leased }, json.stdout);
    const text = await ops('usage', 'ama@example.org');
    assert.match(text.stdout, /^keyPrefix\s+keyName\s+endpoint\s+used\s+leased\s+limit/m);
    assert.match(text.stdout, /leased: of these, units hosts and workers hold/);
  });

  it('ops CLI - set-plan, suspend and reinstate change the developer', async () => {
    const plan = await ops('developers', 'set-plan', 'wole@example.org', 'institution', '--all-keys');
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, /institution/);
    const suspended = await ops('developers', 'suspend', 'wole@example.org', '--json');
    assert.equal((JSON.parse(suspended.stdout) as { developer: { status: string } }).developer.status, 'suspended');
    const back = await ops('developers', 'reinstate', 'wole@example.org', '--json');
    assert.equal((JSON.parse(back.stdout) as { developer: { status: string; plan: string } }).developer.status, 'active');
    const bad = await ops('developers', 'set-plan', 'wole@example.org', 'gold');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown plan gold/);
  });

  it('ops CLI - keys expire --at and keys revoke refuse the key', async () => {
    const extra = await meter.register({ name: 'E', email: 'expire@example.org' }, '10.1.1.3');
    await meter.admit(extra.apiKey, 'GET /api/v1/stats');
    const future = await ops('keys', 'expire', extra.keyPrefix, '--at', '2999-01-01T00:00:00Z', '--json');
    assert.equal(future.code, 0, future.stderr);
    const parsed = JSON.parse(future.stdout) as { key: { expiresAt: string; status: string } };
    assert.deepEqual(parsed.key.expiresAt, '2999-01-01T00:00:00.000Z');
    assert.equal(parsed.key.status, 'usable');
    const revoked = await ops('keys', 'revoke', extra.keyPrefix);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, /revoked/);
    await assert.rejects(meter.admit(extra.apiKey, 'GET /api/v1/stats'), InvalidApiKeyError);
  });

  it('ops CLI - backup writes a consistent copy of metering.db', async () => {
    const file = path.join(tempDir('backup'), 'copy.db');
    const out = await ops('backup', file);
    assert.equal(out.code, 0, out.stderr);
    const copy = new Database(file, { readonly: true });
    const n = copy.prepare('SELECT count(*) AS n FROM developers').get() as { n: number };
    copy.close();
    assert.ok(n.n >= 2);
    assert.ok(fs.statSync(file).size > 0);
  });

  it('ops CLI - an unknown email, prefix or command is a clear message and a non-zero exit', async () => {
    const cases = await Promise.all([
      ops('developers', 'show', 'nobody@example.org'),
      ops('keys', 'revoke', 'svc_live_00000000'),
      ops('usage', 'nobody@example.org'),
      ops('frobnicate'),
    ]);
    assert.equal(cases[0].code, 1);
    assert.match(cases[0].stderr, /no developer with email nobody@example\.org/);
    assert.equal(cases[1].code, 1);
    assert.match(cases[1].stderr, /no key with prefix svc_live_00000000/);
    assert.equal(cases[2].code, 1);
    assert.equal(cases[3].code, 2);
    assert.match(cases[3].stderr, /unknown command/);
  });
});
