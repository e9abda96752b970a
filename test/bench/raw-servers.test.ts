// The bench's raw ceiling (scripts/bench/raw-servers.ts, raw-server.ts): every process listens before the
// start returns, each serves the captured bytes with or without a CPU cost, and the cost-matched server's
// burn moves towards the CPU per request it is given (cpu-matcher.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

import { CpuMatcher } from '../../scripts/bench/cpu-matcher.ts';
import { CLOCK_TICK_SECONDS, cpuSecondsOf } from '../../scripts/bench/proc-stats.ts';
import type { CapturedRoutes } from '../../scripts/bench/raw-server.ts';
import { startRawServers } from '../../scripts/bench/raw-servers.ts';
import type { RawServerOptions, RawServers } from '../../scripts/bench/raw-servers.ts';
import { onUnsharedPort } from '../support/listeners.ts';
import { freePort } from '../support/nats.ts';

const routes: CapturedRoutes = {
  exact: { '/api/v1/stats': { status: '200 OK', headers: [['x-captured', 'yes']], body: '{"entries":1}' } },
  pools: { '/api/v1/words': [{ status: '200 OK', headers: [], body: '{"data":["a"]}' }, { status: '200 OK', headers: [], body: '{"data":["b"]}' }] },
};

/** Raw servers on a port no other process listens on: a concurrent test file's API workers would answer for them. */
async function startAlone(options: Omit<RawServerOptions, 'port'>): Promise<RawServers> {
  const { started } = await onUnsharedPort((port) => startRawServers({ ...options, port }), (s) => s.pids, (s) => s.stop());
  return started;
}

describe('bench raw ceiling', () => {
  it('bench raw ceiling - both processes listen before the start returns, and serve the captured responses with a CPU cost', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-raw-'));
    const routesFile = path.join(dir, 'routes.json');
    fs.writeFileSync(routesFile, JSON.stringify(routes));
    const log = path.join(dir, 'raw.log');
    const servers = await startAlone({ count: 2, routesFile, cpuMicros: 500, log });
    try {
      const lines = fs.readFileSync(log, 'utf8');
      for (const pid of servers.pids) assert.match(lines, new RegExp(`raw server ${pid} listening on .*, CPU per request matched to 500 µs`));
      const stats = await fetch(`${servers.base}/api/v1/stats?ignored=1`);
      assert.equal(stats.status, 404, 'an exact capture matches the path and query as sent');
      const exact = await fetch(`${servers.base}/api/v1/stats`);
      assert.equal(exact.headers.get('x-captured'), 'yes');
      assert.equal(await exact.text(), '{"entries":1}');
      const bodies = new Set<string>();
      for (let i = 0; i < 8; i++) bodies.add(await (await fetch(`${servers.base}/api/v1/words?q=${i}`)).text());
      assert.ok([...bodies].every((b) => b === '{"data":["a"]}' || b === '{"data":["b"]}'));
      // The burn is counted in CPU time, not in wall time: whatever the machine's load, 200 requests at a target
      // of 500 µs use at least half of that in the two processes (the matcher trims the burn by their own cost).
      // First 200 unmeasured: the start's own CPU (the JIT) makes the first windows look dear, and the matcher
      // cuts the burn until it has seen ordinary requests. /proc counts in ticks of 10 ms per process.
      const cpu = () => cpuSecondsOf(servers.pids);
      for (let i = 0; i < 200; i++) await (await fetch(`${servers.base}/api/v1/stats`)).arrayBuffer();
      const before = cpu();
      for (let i = 0; i < 200; i++) await (await fetch(`${servers.base}/api/v1/stats`)).arrayBuffer();
      const used = cpu() - before;
      const ticks = CLOCK_TICK_SECONDS * servers.pids.length;
      assert.ok(used + ticks >= (200 * 250) / 1e6, `${used} s of CPU for 200 requests`);
    } finally {
      await servers.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bench raw ceiling - a raw server refuses a CPU cost that is not a number of µs', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-raw-'));
    const routesFile = path.join(dir, 'routes.json');
    fs.writeFileSync(routesFile, JSON.stringify(routes));
    try {
      await assert.rejects(
        startRawServers({ count: 1, port: await freePort(), routesFile, cpuMicros: -1, log: path.join(dir, 'raw.log') }),
        /raw server exited/,
      );
      assert.match(fs.readFileSync(path.join(dir, 'raw.log'), 'utf8'), /CPU per request must be a number of µs >= 0, got -1/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bench raw ceiling - the burn moves by half the gap between the CPU per request and the target, never below nothing', () => {
    const matcher = new CpuMatcher(100);
    assert.equal(matcher.burnMicros, 100, 'it starts at the target');
    const serve = (n: number) => {
      for (let i = 0; i < n; i++) matcher.served();
    };
    serve(100);
    assert.equal(matcher.endWindow(100 * 120), 90, '120 µs per request against 100: 10 less');
    serve(10);
    assert.equal(matcher.endWindow(10 * 60), 90, 'too few requests: the window is joined to the next');
    serve(90);
    assert.equal(matcher.endWindow(90 * 60), 110, 'the two windows together: 60 µs per request, 20 more');
    serve(100);
    assert.equal(matcher.endWindow(100 * 400), 0);
    assert.throws(() => new CpuMatcher(-1), /CPU per request must be a number of µs >= 0, got -1/);
  });
});
