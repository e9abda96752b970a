// A stalled log reader under full load, as the issue found it: the production stack under pm2 with every
// request logged, wrk at 32 connections over three metered endpoints, and pm2's daemon (the reader of every
// worker's output) stopped with SIGSTOP for 30 s. No worker dies or passes 200 MB resident, requests keep
// succeeding, and each worker reports the request lines it dropped once pm2 reads again.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { runWrk } from '../../scripts/bench/wrk.ts';
import { apiWorkers, droppedLinesReports, stallLogReader } from '../support/log-stall.ts';
import { startPm2Stack, type Pm2Stack } from '../support/pm2-stack.ts';

const PATHS = ['/api/v1/stats', '/api/v1/languages', '/api/v1/word-of-the-day?language=yo'];
const STALL_MS = 30_000;
const WARM_UP_S = 5;
const AFTER_S = 10;
const MIB = 1024 * 1024;
const RSS_LIMIT = 200 * MIB;
/** Institution keys, taken in turn: at wrk's rate one key's 500,000 daily requests per endpoint would run out. */
const KEYS = 4;

describe('stalled log reader under load', () => {
  let stack: Pm2Stack;
  let keys: string[];
  before(async () => {
    stack = await startPm2Stack({ workers: 2, env: { REQUEST_LOG: 'all' } });
    keys = [];
    for (let i = 0; i < KEYS; i++) keys.push(await stack.newKey(`stall-${i}@example.org`, 'institution'));
    for (const key of keys) for (const p of PATHS) await (await fetch(`${stack.baseUrl}${p}`, { headers: { 'x-api-key': key } })).arrayBuffer();
  });
  after(async () => {
    await stack?.stop();
  });

  it('stalled log reader under load - pm2 stopped 30 s under wrk: workers survive under 200 MB, requests succeed, drops reported', async () => {
    const workers = await apiWorkers(stack);
    const pathsFile = path.join(stack.dataDir, 'paths.txt');
    fs.writeFileSync(pathsFile, `${Array.from({ length: 8 }, () => PATHS.join('\n')).join('\n')}\n`);
    const wrk = runWrk(
      { base: stack.baseUrl, pathsFile, apiKeys: `${keys.join(',')};${[...keys].reverse().join(',')}` },
      { threads: 2, connections: 32, seconds: WARM_UP_S + STALL_MS / 1000 + AFTER_S, prefix: [] },
    );
    await sleep(WARM_UP_S * 1000);
    const stall = await stallLogReader(stack, { minMs: STALL_MS }, workers.map((w) => w.pid), keys[0]);
    const load = await wrk;
    const rss = [...stall.peakRss].map(([pid, bytes]) => `${pid}: ${Math.round(bytes / MIB)} MB`).join(', ');
    const shown = `wrk ${JSON.stringify({ rps: Math.round(load.rps), non2xx: load.non2xx, socketErrors: load.socketErrors })}; peak RSS ${rss}`;

    assert.deepEqual(await apiWorkers(stack), workers, `no worker died or restarted; ${shown}`);
    for (const [pid, bytes] of stall.peakRss) assert.ok(bytes < RSS_LIMIT, `worker ${pid}: ${shown}`);
    assert.equal(load.non2xx, 0, shown);
    assert.equal(load.socketErrors, 0, shown);
    assert.ok(stall.probes.length > 50 && stall.probes.every((p) => p.status === 200), `probes during the stall: ${JSON.stringify(stall.probes.filter((p) => p.status !== 200))}`);

    let reports: Record<string, unknown>[] = [];
    for (let i = 0; i < 50 && reports.length < workers.length; i++) {
      await sleep(200);
      reports = droppedLinesReports(stack);
    }
    assert.equal(new Set(reports.map((r) => r.worker)).size, workers.length, `each worker reported its drops: ${JSON.stringify(reports)}; ${shown}`);
    const metrics = await (await fetch(stack.metricsUrl)).text();
    assert.match(metrics, /^dict_log_lines_dropped_total\{kind="request",worker="api-\d@[^"]+"\} [1-9]\d*$/m);
    console.log(`${shown}; drops ${JSON.stringify(reports.map((r) => r.requestLines))}`);
  });
});
