// Snapshot publish under load: a client calling all through `npm run publish:snapshot` sees no failed request.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';

import { startPm2Stack, type Pm2Stack } from '../support/pm2-stack.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

describe('publish:snapshot', () => {
  let stack: Pm2Stack;
  before(async () => {
    stack = await startPm2Stack({ workers: 2 });
  });
  after(async () => {
    await stack?.stop();
  });

  it('ecosystem under pm2 - API workers start with the bounded heap and single-threaded GC flags (issue 7)', async () => {
    // pm2 rewrites the workers' process titles, so /proc/<pid>/cmdline cannot show them: ask pm2.
    const apps = JSON.parse(await stack.pm2('jlist')) as { name: string; pm2_env: { node_args?: string[] } }[];
    const api = apps.filter((a) => a.name === 'api');
    assert.equal(api.length, 2);
    for (const app of api) assert.deepEqual(app.pm2_env.node_args, ['--max-semi-space-size=4', '--max-old-space-size=128', '--single-threaded-gc']);
  });

  it('ecosystem under pm2 - neither the API workers nor metering run under pm2\'s source-map support, though dist/ has maps', async () => {
    // pm2 turns source-map-support on for any script with a .map beside it unless the app sets
    // disable_source_map_support; its first mapped stack trace parses the whole map, a stall in a worker.
    assert.ok(fs.existsSync(path.join(ROOT, 'dist/api.mjs.map')) && fs.existsSync(path.join(ROOT, 'dist/metering.mjs.map')));
    const apps = JSON.parse(await stack.pm2('jlist')) as { name: string; pm2_env: { source_map_support?: unknown } }[];
    const node = apps.filter((a) => a.name === 'api' || a.name === 'metering');
    assert.equal(node.length, 3);
    for (const app of node) assert.ok(!app.pm2_env.source_map_support, `${app.name}: source_map_support ${String(app.pm2_env.source_map_support)}`);
  });

  it('publish:snapshot - switches snapshots and reloads workers with no failed request, then rolls back', async () => {
    const key = await stack.newKey('publisher@example.org', 'institution');
    const failures: string[] = [];
    let ok = 0;
    let running = true;
    const paths = ['/api/v1/words?q=omi&language=yo', '/api/v1/languages', '/api/v1/stats', '/api/v1/word-of-the-day'];
    const client = async (n: number) => {
      for (let i = n; running; i++) {
        const url = `${stack.baseUrl}${paths[i % paths.length]}`;
        try {
          const res = await fetch(url, { headers: { 'x-api-key': key } });
          await res.arrayBuffer();
          if (res.status === 200) ok++;
          else failures.push(`${url} → ${res.status}`);
        } catch (err) {
          failures.push(`${url} → ${(err as Error).message} ${String((err as Error).cause ?? '')}`);
        }
      }
    };
    const clients = [client(0), client(1), client(2), client(3)];

    const before = fs.realpathSync(path.join(stack.dataDir, 'snapshots/current.sqlite'));
    await run(process.execPath, ['--import', 'tsx', 'scripts/publish-snapshot.ts'], { env: stack.env, cwd: ROOT });
    const published = fs.realpathSync(path.join(stack.dataDir, 'snapshots/current.sqlite'));
    assert.notEqual(published, before, 'current.sqlite points at the new snapshot');
    assert.equal(fs.realpathSync(path.join(stack.dataDir, 'snapshots/previous.sqlite')), before);
    const apps = JSON.parse(await stack.pm2('jlist')) as { name: string; pm2_env: { restart_time: number } }[];
    const api = apps.filter((a) => a.name === 'api');
    assert.equal(api.length, 2);
    assert.ok(api.every((a) => a.pm2_env.restart_time >= 1), `every api worker was reloaded: ${JSON.stringify(api.map((a) => a.pm2_env.restart_time))}`);

    await run(process.execPath, ['--import', 'tsx', 'scripts/publish-snapshot.ts', '--rollback'], {
      env: stack.env,
      cwd: ROOT,
    });
    assert.equal(fs.realpathSync(path.join(stack.dataDir, 'snapshots/current.sqlite')), before);

    running = false;
    await Promise.all(clients);
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} failed requests of ${ok + failures.length}`);
    assert.ok(ok > 100, `the client kept calling through the publish (${ok} successes)`);
  });
});
