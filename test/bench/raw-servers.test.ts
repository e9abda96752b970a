// The bench's raw ceiling (scripts/bench/raw-servers.ts, raw-server.ts): every process listens before the
// start returns, and each serves the captured bytes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

import type { CapturedRoutes } from '../../scripts/bench/raw-server.ts';
import { startRawServers } from '../../scripts/bench/raw-servers.ts';
import type { RawServerOptions, RawServers } from '../../scripts/bench/raw-servers.ts';
import { onUnsharedPort } from '../support/listeners.ts';

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
  it('bench raw ceiling - both processes listen before the start returns, and serve the captured responses', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-raw-'));
    const routesFile = path.join(dir, 'routes.json');
    fs.writeFileSync(routesFile, JSON.stringify(routes));
    const log = path.join(dir, 'raw.log');
    const servers = await startAlone({ count: 2, routesFile, log });
    try {
      const lines = fs.readFileSync(log, 'utf8');
      for (const pid of servers.pids) assert.match(lines, new RegExp(`raw server ${pid} listening on 127\\.0\\.0\\.1:`));
      const stats = await fetch(`${servers.base}/api/v1/stats?ignored=1`);
      assert.equal(stats.status, 404, 'an exact capture matches the path and query as sent');
      const exact = await fetch(`${servers.base}/api/v1/stats`);
      assert.equal(exact.status, 200);
      assert.equal(exact.headers.get('x-captured'), 'yes');
      assert.equal(await exact.text(), '{"entries":1}');
      const bodies = new Set<string>();
      for (let i = 0; i < 8; i++) bodies.add(await (await fetch(`${servers.base}/api/v1/words?q=${i}`)).text());
      assert.deepEqual([...bodies].sort(), ['{"data":["a"]}', '{"data":["b"]}'], 'the pool is served in turn');
    } finally {
      await servers.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
