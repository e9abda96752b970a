// GET /downloads/{name} against hostile names (only the index's names are ever served), clients that go away
// mid-download (the request ends; the file stays servable) and clients that stop reading (dropped after the
// stall timeout, the bytes held for them bounded per worker).
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';

import { createApp } from '../../services/api/app.ts';
import { ResponseBuffers } from '../../services/api/http/response-buffers.ts';
import { WorkerCounters } from '../../services/api/metrics/worker-stats.ts';
import type { Deps } from '../../services/api/deps.ts';
import type { Meter } from '../../services/api/metering-client/meter.ts';
import { openSnapshot } from '../../snapshot/reader/reader.ts';
import { DOWNLOADS_INDEX_NAME, DownloadIndexSchema, downloadFileName, downloadsDirOf } from '../../snapshot/format/downloads.ts';
import type { DownloadIndex } from '../../snapshot/format/downloads.ts';
import { freePort } from '../support/free-port.ts';
import { testSnapshotPath } from '../support/snapshot.ts';

/** A GET of the path exactly as written (fetch would resolve dot segments before sending). */
function rawGet(port: number, rawPath: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Downloads are never metered: a meter that fails the test if a download reaches it. */
const noMeter: Meter = {
  admit: () => Promise.reject(new Error('a download reached the meter')),
  register: () => Promise.reject(new Error('a download reached the meter')),
  health: () => Promise.resolve({ reachable: true, canCommit: true }),
  close: () => Promise.resolve(),
};

let port = 0;
let dir = '';
let big: DownloadIndex['files'][number];
const requests: Array<{ route: string; status: number }> = [];
let stop = async (): Promise<void> => {};
/** Short, so that the test waits little for a stalled client to be dropped. */
const STALL_MS = 1000;
/** Room for four downloads' chunks (64 KiB each) held for clients that do not read. */
const BUFFER_BYTES = 4 * 64 * 1024;
const buffers = new ResponseBuffers({ stallMs: STALL_MS, maxBytes: BUFFER_BYTES });

/** A copy of the test snapshot whose downloads are its own plus a file large enough to outlast socket buffers. */
before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'downloads-security-'));
  const snapshotFile = path.join(dir, 'snapshot-1.sqlite');
  copyFileSync(testSnapshotPath(), snapshotFile);
  const source = downloadsDirOf(testSnapshotPath());
  const target = downloadsDirOf(snapshotFile);
  mkdirSync(target);
  const index = DownloadIndexSchema.parse(JSON.parse(readFileSync(path.join(source, DOWNLOADS_INDEX_NAME), 'utf8')));
  for (const f of index.files) {
    copyFileSync(path.join(source, f.name), path.join(target, f.name));
    copyFileSync(path.join(source, f.csv.name), path.join(target, f.csv.name));
  }
  const bytes = randomBytes(24 * 1024 * 1024);
  const name = downloadFileName('xx', 'large', index.version);
  writeFileSync(path.join(target, name), bytes);
  big = { ...index.files[0], name, url: `/downloads/${name}`, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  writeFileSync(path.join(target, DOWNLOADS_INDEX_NAME), JSON.stringify({ ...index, files: [...index.files, big] }));

  const snapshot = openSnapshot(snapshotFile);
  assert.equal(snapshot.downloads?.().problem, undefined);
  port = await freePort();
  const deps: Deps = {
    config: { port, host: '127.0.0.1', natsUrl: 'nats://127.0.0.1:1', dataDir: dir, snapshotPath: snapshotFile, trustProxy: [], workerName: 'downloads-test', requestLog: { mode: 'all', sampleEvery: 1 } },
    snapshot,
    meter: noMeter,
    log: {
      info: () => {},
      error: () => {},
      request: (_method, route, status) => requests.push({ route, status }),
      flush: () => {},
    },
    now: Date.now,
    stats: new WorkerCounters(),
    responseBuffers: buffers,
  };
  const app = createApp(deps);
  await app.listen(port, '127.0.0.1');
  stop = async () => {
    app.close();
    snapshot.close();
    rmSync(dir, { recursive: true, force: true });
  };
});
after(() => stop());

describe('GET /downloads/{name} security', () => {
  it('GET /downloads/{name} security - names outside the index answer 404 and never another file', async () => {
    const listed = big.name;
    const paths = [
      '/downloads/..%2Fsnapshot-1.sqlite',
      '/downloads/%2e%2e%2fsnapshot-1.sqlite',
      '/downloads/..%2f..%2fpackage.json',
      '/downloads/../snapshot-1.sqlite',
      '/downloads/..',
      '/downloads/%2e%2e',
      '/downloads/.%2Findex.json',
      `/downloads/${listed}%00`,
      `/downloads/${listed}.part`,
      `/downloads/${listed.toUpperCase()}`,
      `/downloads/${listed.replace(/v\d+-[0-9a-f]+/, 'v5-000000000000')}`,
      `/downloads/snapshot-1.sqlite.downloads%2F${listed}`,
      '/downloads/%2Fetc%2Fpasswd',
      '/downloads/__proto__',
      '/downloads/constructor',
    ];
    const snapshotHead = readFileSync(testSnapshotPath()).subarray(0, 16);
    for (const p of paths) {
      const got = await rawGet(port, p);
      const shown = `${p}: ${got.status} ${JSON.stringify(got.headers)} ${got.body.toString('utf8', 0, 200)}`;
      assert.equal(got.status, 404, shown);
      assert.ok(!got.body.subarray(0, 16).equals(snapshotHead), shown);
      assert.notEqual(got.headers['content-type'], 'application/gzip', shown);
      if (got.headers['content-type']?.startsWith('application/json')) {
        assert.equal((JSON.parse(got.body.toString()) as { error: { code: string } }).error.code, 'not_found', shown);
      }
    }
  });

  it('GET /downloads/{name} security - a client gone mid-download ends its request; the file is still served whole', async () => {
    const before = requests.length;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET ${big.url} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    socket.pause(); // reads nothing: the worker meets backpressure long before 24 MB are sent
    await sleep(300);
    socket.destroy();
    const deadline = Date.now() + 5_000;
    while (requests.length === before && Date.now() < deadline) await sleep(20);
    assert.deepEqual(requests.slice(before), [{ route: 'GET /downloads/:name', status: 200 }], 'the aborted request ended (its log line)');

    const whole = await fetch(`http://127.0.0.1:${port}${big.url}`);
    const bytes = Buffer.from(await whole.arrayBuffer());
    assert.equal(whole.status, 200);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), big.sha256, 'the shared descriptor survived the abort');
  });

  /** A client that sends a GET of the big file and then reads nothing. */
  async function nonReader(): Promise<{ socket: net.Socket; closed: Promise<void> }> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.write(`GET ${big.url} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    socket.pause();
    return { socket, closed };
  }

  async function until(what: string, done: () => boolean): Promise<void> {
    const deadline = Date.now() + 20 * STALL_MS;
    while (!done() && Date.now() < deadline) await sleep(20);
    assert.ok(done(), `${what}: held ${buffers.held}, dropped ${JSON.stringify(buffers.dropped)}, log ${JSON.stringify(requests.slice(-5))}`);
  }

  it('GET /downloads/{name} security - a client that stops reading is dropped after the stall timeout, its bytes given back', async () => {
    const before = requests.length;
    const stalledBefore = buffers.dropped.stalled;
    const { socket, closed } = await nonReader();
    await until('the stalled download ended', () => requests.length > before && buffers.dropped.stalled > stalledBefore);
    assert.equal(buffers.held, 0, 'nothing is held for it any more');
    // What the kernel had taken is still readable; then the connection ends, long before the 24 MB.
    let received = 0;
    socket.on('data', (c: Buffer) => (received += c.length));
    socket.resume();
    await closed;
    assert.ok(received < big.bytes, `received ${received} of ${big.bytes} bytes`);
  });

  it('GET /downloads/{name} security - the bytes held for clients that do not read stay under the worker\'s bound', async () => {
    const before = requests.length;
    const clients = await Promise.all(Array.from({ length: 12 }, () => nonReader()));
    await until('every download ended', () => requests.length >= before + clients.length);
    assert.ok(buffers.peak <= BUFFER_BYTES, `peak ${buffers.peak} over the bound ${BUFFER_BYTES}`);
    assert.ok(buffers.dropped.buffer_full > 0, `some were dropped at the bound: ${JSON.stringify(buffers.dropped)}`);
    assert.equal(buffers.held, 0);
    for (const { socket, closed } of clients) {
      socket.resume();
      await closed;
    }
    // And a client that reads is still served whole.
    const whole = await fetch(`http://127.0.0.1:${port}${big.url}`);
    const bytes = Buffer.from(await whole.arrayBuffer());
    assert.equal(createHash('sha256').update(bytes).digest('hex'), big.sha256);
  });
});
