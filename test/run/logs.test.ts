// The stack's logs as production runs them (pm2, bundled services) with every request logged: files rotated by
// size, and a log reader that stops for a while (pm2's daemon under SIGSTOP) costs no worker and no request.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { startBlast } from '../support/blast.ts';
import { apiWorkers, droppedLinesReports, requestLinesDropped, stallLogReader } from '../support/log-stall.ts';
import { startPm2Stack, type Pm2Stack } from '../support/pm2-stack.ts';

const PATHS = ['/api/v1/stats', '/api/v1/languages', '/api/v1/word-of-the-day?language=yo'];
const MIB = 1024 * 1024;
/**
 * What a worker may write past LOG_MAX_MB before it is rotated: what it writes in two of the rotation process's
 * checks (1 s apart; on a loaded machine a check can come an interval late) at the rate the blast reached, and never
 * less than 3 MiB. A fixed figure failed as the workers got faster: the bound is a time, not a size.
 */
const MIN_OVERSHOOT = 3 * MIB;
const CHECKS_LATE = 2;
const STALL_MS = 8_000;
const MAX_STALL_MS = 45_000;
const RSS_LIMIT = 200 * MIB;

describe('logs under pm2', () => {
  let stack: Pm2Stack;
  let key: string;
  before(async () => {
    stack = await startPm2Stack({ workers: 2, env: { REQUEST_LOG: 'all', LOG_MAX_MB: '1', LOG_KEEP: '2' } });
    key = await stack.newKey('logs@example.org', 'institution');
    // Each worker leases allowance for each path before the load starts.
    for (let i = 0; i < 20; i++) await (await fetch(`${stack.baseUrl}${PATHS[i % PATHS.length]}`, { headers: { 'x-api-key': key } })).arrayBuffer();
  });
  after(async () => {
    await stack?.stop();
  });

  it('logs under pm2 - files over LOG_MAX_MB are rotated, LOG_KEEP of each kept, and pm2 writes on into the emptied files', async () => {
    const logs = path.join(stack.dataDir, 'pm2', 'logs');
    const blast = startBlast({ baseUrl: stack.baseUrl, paths: PATHS, keys: [key], connections: 32 });
    const started = Date.now();
    const deadline = Date.now() + 60_000;
    const rotatedTwice = () => fs.readdirSync(logs).filter((n) => /^api-out-\d+\.log\.2$/.test(n)).length;
    while (rotatedTwice() === 0 && Date.now() < deadline) await sleep(500);
    await sleep(1_500);
    const statuses = await blast.stop();
    const seconds = (Date.now() - started) / 1000;
    await sleep(1_500);
    const sizes = Object.fromEntries(fs.readdirSync(logs).sort().map((n) => [n, fs.statSync(path.join(logs, n)).size]));
    const shown = `${JSON.stringify(sizes)} after ${JSON.stringify([...statuses])}`;
    assert.ok(rotatedTwice() > 0, `a worker's log was rotated twice: ${shown}`);
    assert.deepEqual(Object.keys(sizes).filter((n) => /\.log\.([3-9]|\d\d+)$/.test(n)), [], `no more than LOG_KEEP rotated files: ${shown}`);
    // Bytes per second one worker may write: every request of the blast on it, each a line of the rotated files' mean.
    const rotated = fs.readdirSync(logs).filter((n) => /^api-out-\d+\.log\.1$/.test(n)).map((n) => fs.readFileSync(path.join(logs, n)));
    const lineBytes = rotated.reduce((n, b) => n + b.length, 0) / Math.max(1, rotated.reduce((n, b) => n + b.filter((c) => c === 10).length, 0));
    const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
    const overshoot = Math.max(MIN_OVERSHOOT, (CHECKS_LATE * requests * lineBytes) / seconds);
    for (const [name, size] of Object.entries(sizes)) assert.ok(size <= MIB + overshoot, `${name} holds ${size} bytes (bound ${Math.round(MIB + overshoot)}): ${shown}`);
    const rotation = fs.readFileSync(path.join(logs, fs.readdirSync(logs).find((n) => /^logrotate-out.*\.log$/.test(n)) ?? ''), 'utf8');
    assert.match(rotation, /"msg":"rotated","files":\["api-out-\d+\.log"/, rotation);
    // pm2 appends on into the emptied files.
    await (await fetch(`${stack.baseUrl}/api/v1/stats`, { headers: { 'x-api-key': key } })).arrayBuffer();
    await sleep(500);
    const live = fs.readdirSync(logs).filter((n) => /^api-out-\d+\.log$/.test(n));
    assert.ok(live.some((n) => fs.statSync(path.join(logs, n)).size > 0), `a live log got the last request: ${shown}`);
  });

  it('logs under pm2 - with pm2 stopped under load, workers stay up and bounded, requests succeed, dropped lines are counted and reported', async () => {
    const workers = await apiWorkers(stack);
    const blast = startBlast({ baseUrl: stack.baseUrl, paths: PATHS, keys: [key], connections: 32 });
    const started = Date.now();
    await sleep(1_000);
    // A worker drops request lines once about 1 MiB waits behind the stopped reader; on a machine busy with other
    // tests the load may take longer than STALL_MS to get there, so the stall lasts until the metrics count drops.
    const stall = await stallLogReader(stack, { minMs: STALL_MS, until: { done: async () => (await requestLinesDropped(stack)) > 0, maxMs: MAX_STALL_MS } }, workers.map((w) => w.pid), key);
    const dropped = await requestLinesDropped(stack);

    // Once pm2 reads again, each worker that dropped lines says how many, under load still. The reports are
    // looked for meanwhile: the load fills LOG_MAX_MB within seconds, and rotation deletes what passes LOG_KEEP.
    // The kernel spreads the connections over the workers (SO_REUSEPORT), so on a busy machine one worker's
    // share may never fill its pipe during the stall: it drops nothing and has nothing to report.
    const reports = new Map<string, Record<string, unknown>>();
    const seen = () => new Set([...reports.values()].map((r) => r.worker)).size;
    const resumed = Date.now();
    // At least 2 s of load after the stall; then until every worker has reported, at most 10 s in all.
    while (Date.now() - resumed < 2_000 || (seen() < workers.length && Date.now() - resumed < 10_000)) {
      await sleep(200);
      // Kept across polls: a report may be rotated away before the last poll.
      for (const r of droppedLinesReports(stack)) reports.set(JSON.stringify(r), r);
    }
    const statuses = await blast.stop();
    const shown = JSON.stringify({ dropped, statuses: [...statuses], failures: blast.failures.slice(0, 5), rss: [...stall.peakRss].map(([pid, b]) => [pid, Math.round(b / MIB)]) });

    assert.deepEqual([...statuses.keys()], [200], `every request answered 200: ${shown}`);
    assert.deepEqual(blast.failures, [], shown);
    assert.ok(stall.probes.length > 10 && stall.probes.every((p) => p.status === 200), `probes during the stall: ${JSON.stringify(stall.probes)}`);
    for (const [pid, rss] of stall.peakRss) assert.ok(rss < RSS_LIMIT, `worker ${pid} reached ${Math.round(rss / MIB)} MB: ${shown}`);
    assert.deepEqual(await apiWorkers(stack), workers, 'no worker died or restarted');
    assert.ok(dropped > 0, `the metrics counted dropped request lines: ${shown}`);
    assert.ok(seen() >= 1, `a report from the workers that dropped lines: ${shown}`);
    for (const r of reports.values()) assert.ok(Number(r.requestLines) > 0 && r.otherLines === 0, JSON.stringify(r));
  });
});
