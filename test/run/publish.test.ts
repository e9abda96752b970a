// Snapshot publish under load: a client calling all through `npm run publish:snapshot` sees no failed request, and
// the downloads switch with their snapshot.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';

import { DOWNLOADS_INDEX_NAME, DownloadIndexSchema, downloadsDirOf } from '../../snapshot/format/downloads.ts';
import type { DownloadIndex } from '../../snapshot/format/downloads.ts';
import { startPm2Stack, type Pm2Stack } from '../support/pm2-stack.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const SAMPLE_CORPORA = path.join(ROOT, 'corpora', 'sample');

/** A GET on a connection of its own, so that the port's workers (SO_REUSEPORT) take turns answering. */
function getFresh(url: string): Promise<{ status: number; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function servedIndex(baseUrl: string): Promise<DownloadIndex> {
  const { status, bytes } = await getFresh(`${baseUrl}/downloads/index.json`);
  assert.equal(status, 200, bytes.toString());
  return DownloadIndexSchema.parse(JSON.parse(bytes.toString()));
}

/** The index current.sqlite's downloads hold on disk. */
function indexOnDisk(dataDir: string): DownloadIndex {
  const file = fs.realpathSync(path.join(dataDir, 'snapshots/current.sqlite'));
  return DownloadIndexSchema.parse(JSON.parse(fs.readFileSync(path.join(downloadsDirOf(file), DOWNLOADS_INDEX_NAME), 'utf8')));
}

/** Every worker (several calls on fresh connections) serves `expected`'s index and each of its files whole. */
async function everyWorkerServes(baseUrl: string, expected: DownloadIndex): Promise<void> {
  for (let i = 0; i < 6; i++) {
    const index = await servedIndex(baseUrl);
    assert.equal(index.version, expected.version, `call ${i}`);
    for (const file of index.files) {
      const { status, bytes } = await getFresh(`${baseUrl}${file.url}`);
      assert.equal(status, 200, `${file.url}: ${bytes.toString('utf8', 0, 200)}`);
      assert.equal(createHash('sha256').update(bytes).digest('hex'), file.sha256, file.url);
    }
  }
}

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

  it('publish:snapshot - the downloads switch with their snapshot, never mixed, and a pruned snapshot takes its own', async () => {
    const initial = indexOnDisk(stack.dataDir);
    await everyWorkerServes(stack.baseUrl, initial);
    const snapshots = path.join(stack.dataDir, 'snapshots');
    const prunable = fs.realpathSync(path.join(snapshots, 'previous.sqlite'));
    assert.ok(fs.existsSync(downloadsDirOf(prunable)), 'the previous snapshot has its downloads');

    // Through the reload both versions serve: a file is served whole, as the index of its own version lists it, or
    // not at all by a worker of the other version; never other bytes under a listed name.
    const mixed: string[] = [];
    // A connection the kernel hands to a worker's listener as it closes is reset (SO_REUSEPORT): that is not a
    // mix of versions, and the first test covers failed requests on open connections.
    const resets: string[] = [];
    let checked = 0;
    let running = true;
    const client = (async () => {
      while (running) {
        try {
          const got = await getFresh(`${stack.baseUrl}/downloads/index.json`);
          if (got.status !== 200) {
            mixed.push(`index: ${got.status} ${got.bytes.toString('utf8', 0, 200)}`);
            continue;
          }
          const index = DownloadIndexSchema.parse(JSON.parse(got.bytes.toString()));
          for (const file of index.files) {
            const { status, bytes } = await getFresh(`${stack.baseUrl}${file.url}`);
            if (status === 200 && createHash('sha256').update(bytes).digest('hex') !== file.sha256) mixed.push(`${file.url}: other bytes`);
            else if (status !== 200 && status !== 404) mixed.push(`${file.url}: ${status}`);
            checked++;
          }
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') throw err;
          resets.push((err as Error).message);
        }
      }
    })();
    await run(process.execPath, ['--import', 'tsx', 'scripts/publish-snapshot.ts', '--corpora', SAMPLE_CORPORA], { env: stack.env, cwd: ROOT });
    const published = indexOnDisk(stack.dataDir);
    assert.notEqual(published.version, initial.version, 'the sample corpus makes another version');
    await everyWorkerServes(stack.baseUrl, published);
    running = false;
    await client;
    assert.deepEqual(mixed, [], `${mixed.length} mixed of ${checked} (and ${resets.length} connections reset)`);
    assert.ok(checked > 0);
    assert.ok(!fs.existsSync(prunable) && !fs.existsSync(downloadsDirOf(prunable)), 'the pruned snapshot took its downloads');
    for (const file of initial.files) assert.equal((await getFresh(`${stack.baseUrl}${file.url}`)).status, 404, `${file.url} is not this version's`);

    await run(process.execPath, ['--import', 'tsx', 'scripts/publish-snapshot.ts', '--rollback'], { env: stack.env, cwd: ROOT });
    await everyWorkerServes(stack.baseUrl, initial);
    for (const file of published.files) assert.equal((await getFresh(`${stack.baseUrl}${file.url}`)).status, 404, `${file.url} was rolled back`);
  });
});
