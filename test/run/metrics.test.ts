// GET /metrics through the production stack (pm2, two API workers, metering, NATS): one scrape on the metrics
// port holds every process's series, each labelled by worker; never served on the public port.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';

import { parseExposition, total } from '../support/prometheus.ts';
import { startPm2Stack, type Pm2Stack } from '../support/pm2-stack.ts';

import type { Sample } from '../support/prometheus.ts';

const STATS = 'GET /api/v1/stats';
const LOOPBACK_HEX = '0100007F';

/** Local addresses (hex, as /proc/net/tcp writes them) of the IPv4 sockets listening on `port`. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return fs
    .readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length > 3 && f[3] === '0A' && f[1].endsWith(`:${hexPort}`))
    .map((f) => f[1].split(':')[0]);
}

describe('GET /metrics', () => {
  let stack: Pm2Stack;
  let samples: Sample[];
  let text: string;
  let contentType: string | null;
  let served = 0;
  let snapshotVersion = '';

  before(async () => {
    stack = await startPm2Stack({ workers: 2 });
    const key = await stack.newKey('metrics@example.org', 'institution');
    // Registrations from one address until the throttle refuses one.
    for (let i = 0; i < 6; i++) {
      await fetch(`${stack.baseUrl}/api/v1/developers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Throttled', email: `throttle-${i}@example.org` }),
      });
    }
    // Fresh connections, so that both workers (one port, SO_REUSEPORT) serve some.
    for (let i = 0; i < 60; i++) {
      const res = await fetch(`${stack.baseUrl}/api/v1/stats`, { headers: { 'x-api-key': key, connection: 'close' } });
      await res.arrayBuffer();
      if (res.status === 200) served++;
    }
    await (await fetch(`${stack.baseUrl}/api/v1/stats`)).arrayBuffer();
    await (await fetch(`${stack.baseUrl}/api/v1/stats`, { headers: { 'x-api-key': `svc_live_${'0'.repeat(40)}` } })).arrayBuffer();
    snapshotVersion = ((await (await fetch(`${stack.baseUrl}/healthz`)).json()) as { snapshot: { version: string } }).snapshot.version;
    const res = await fetch(stack.metricsUrl);
    contentType = res.headers.get('content-type');
    text = await res.text();
    samples = parseExposition(text);
  });
  after(async () => {
    await stack?.stop();
  });

  const workers = () => [...new Set(samples.filter((s) => s.name === 'dict_snapshot_info').map((s) => s.labels.worker))].sort();
  const metering = () => samples.find((s) => s.name === 'dict_metrics_workers_reporting')?.labels.worker ?? '';

  it('GET /metrics - Prometheus text from both API workers and metering, every series labelled by its worker', () => {
    assert.equal(contentType, 'text/plain; version=0.0.4; charset=utf-8');
    assert.deepEqual(workers().map((w) => w.replace(/@.*/, '')), ['api-0', 'api-1'], text.slice(0, 2000));
    assert.match(metering(), /^metering@/);
    assert.equal(total(samples, 'dict_metrics_workers_reporting'), 2);
    const unlabelled = samples.filter((s) => !s.labels.worker);
    assert.deepEqual(unlabelled, [], 'every series names its worker');
    // prom-client's process metrics, for each process.
    for (const worker of [...workers(), metering()]) {
      for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
        assert.ok(samples.some((s) => s.name === name && s.labels.worker === worker), `${name} of ${worker}`);
      }
      assert.ok(samples.some((s) => s.name === 'dict_log_lines_dropped_total' && s.labels.worker === worker && s.labels.kind === 'request'), `dropped log lines of ${worker}`);
    }
  });

  it('GET /metrics - requests by route and status, their latency, admissions and refusals by reason, leases, keys cached', () => {
    assert.ok(served >= 60, `${served} served`);
    assert.equal(total(samples, 'dict_http_requests_total', { route: STATS, status: '200' }), served);
    assert.equal(total(samples, 'dict_http_requests_total', { route: STATS, status: '401' }), 2);
    assert.ok(workers().every((worker) => total(samples, 'dict_http_requests_total', { route: STATS, worker }) > 0), 'both workers served some');
    assert.equal(total(samples, 'dict_http_request_duration_seconds_count', { route: STATS }), served + 2);
    assert.equal(total(samples, 'dict_http_request_duration_seconds_bucket', { route: STATS, le: '+Inf' }), served + 2);
    assert.equal(total(samples, 'dict_admissions_total', { endpoint: STATS, result: 'admitted' }), served);
    // One request at a time: the first asks metering for a block for the host, which the rest are served from,
    // whichever worker answers (docs/metering.md; fewer than the 125 units of a free key's first block).
    assert.equal(total(samples, 'dict_admissions_total', { endpoint: STATS, result: 'admitted', reason: 'asked' }), 1);
    assert.equal(total(samples, 'dict_admissions_total', { endpoint: STATS, result: 'admitted', reason: 'held' }), served - 1);
    assert.equal(total(samples, 'dict_admissions_total', { endpoint: STATS, result: 'refused', reason: 'missing_api_key' }), 1);
    assert.equal(total(samples, 'dict_admissions_total', { endpoint: STATS, result: 'refused', reason: 'invalid_api_key' }), 1);
    assert.equal(total(samples, 'dict_lease_requests_total', { outcome: 'granted' }), 1, 'one round trip for the host');
    assert.equal(total(samples, 'dict_lease_request_duration_seconds_count'), total(samples, 'dict_lease_requests_total'));
    assert.ok(total(samples, 'dict_keys_cached') >= 2, 'the key is cached in both workers');
    // And the unknown key's: metering answered it (status invalid).
    assert.equal(total(samples, 'dict_lease_requests_total', { outcome: 'invalid' }), 1);
    assert.equal(total(samples, 'dict_metering_requests_total', { endpoint: 'lease', outcome: 'ok' }), 2);
    assert.equal(total(samples, 'dict_metering_request_duration_seconds_count', { endpoint: 'lease' }), 2);
  });

  it('GET /metrics - registrations counted by metering, throttle refusals by the worker or metering that refused them', () => {
    const shown = text.match(/^dict_(registrations|guard_refusals)_total.*$/gm)?.join('\n');
    assert.ok(total(samples, 'dict_registrations_total', { outcome: 'created' }) >= 5, shown);
    // A worker refuses an address over the limit itself; metering refuses what reaches it from another worker.
    const throttled = total(samples, 'dict_guard_refusals_total', { guard: 'registration' }) + total(samples, 'dict_registrations_total', { outcome: 'throttled' });
    assert.ok(throttled >= 1, shown);
  });

  it('GET /metrics - the snapshot each worker serves, as an info metric', () => {
    const info = samples.filter((s) => s.name === 'dict_snapshot_info');
    assert.equal(info.length, 2);
    for (const s of info) {
      assert.equal(s.value, 1);
      assert.equal(s.labels.version, snapshotVersion);
      assert.equal(s.labels.sample, 'false');
    }
  });

  it('GET /metrics - bound to loopback on METRICS_PORT only, never answered on the public port', async () => {
    const port = Number(new URL(stack.metricsUrl).port);
    assert.deepEqual(listeningAddresses(port), [LOOPBACK_HEX]);
    const res = await fetch(`${stack.baseUrl}/metrics`);
    const body = await res.text();
    assert.equal(res.status, 404, body.slice(0, 500));
    assert.doesNotMatch(body, /# TYPE/);
    const other = await fetch(stack.metricsUrl.replace(/\/metrics$/, '/other'));
    assert.equal(other.status, 404);
  });
});
