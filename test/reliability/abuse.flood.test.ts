// Floods of requests that are cheap to send and were costly to answer, each from one address: registrations,
// random API keys and /healthz. They stop at the workers' own bounds (services/api/guards/), so a client sending
// one request at a time on another key never sees a 500, metering.db keeps a bounded number of rows, and the
// metering service is asked a bounded number of times. How fast the probe stays is the bench's to show
// (scripts/bench, the flood section), not asserted here.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import Database from 'better-sqlite3';

import { UNKNOWN_KEYS_PER_ADDRESS } from '../../services/api/guards/unknown-keys.ts';
import { KEY_CREATION_LIMIT } from '../../services/shared/plans.ts';
import { parseExposition, total } from '../support/prometheus.ts';
import { startStack } from '../support/stack.ts';
import { httpClient } from './support/http.ts';

import type { Stack } from '../support/stack.ts';
import type { RawRequest } from './support/http.ts';

const WORKERS = 2;
/** Requests in flight at once in each flood. */
const CONCURRENCY = 32;
const REGISTRATION_FLOOD = 3_000;
const KEY_FLOOD = 2_000;
const HEALTHZ_FLOOD = 2_000;
/** A free key's day is 1,000 requests per endpoint: the probe stops well before. */
const PROBE_MAX = 800;

let stack: Stack;
let probeKey: string;
before(async () => {
  stack = await startStack({ workers: WORKERS });
  probeKey = (await stack.register()).apiKey;
});
after(async () => {
  await stack?.stop();
});

/** Sends `count` requests, CONCURRENCY at a time; resolves with each status's count. */
async function flood(count: number, request: (i: number) => RawRequest): Promise<Map<number, number>> {
  const client = httpClient(stack.baseUrl, CONCURRENCY);
  const statuses = new Map<number, number>();
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const res = await client.send(request(next++));
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  } finally {
    client.close();
  }
  return statuses;
}

/** One request at a time on the probe key until `done` settles; resolves with each status's count. */
async function probeWhile(done: Promise<unknown>): Promise<Map<number, number>> {
  let finished = false;
  void done.finally(() => (finished = true));
  const client = httpClient(stack.baseUrl, 1, '127.0.0.1');
  const statuses = new Map<number, number>();
  try {
    for (let i = 0; i < PROBE_MAX && !finished; i++) {
      const res = await client.send({ method: 'GET', path: '/api/v1/languages', headers: [['X-API-Key', probeKey]] });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  } finally {
    client.close();
  }
  return statuses;
}

async function metrics() {
  const port = /"msg":"metrics at GET \/metrics"[^\n]*"port":(\d+)/.exec(stack.meteringLogs())?.[1];
  assert.ok(port, 'the metering process logs its metrics port');
  return parseExposition(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
}

const show = (m: Map<number, number>) => JSON.stringify(Object.fromEntries(m));

describe('floods from one address', () => {
  test('floods from one address - 3,000 registrations: five keys, the rest 429 at the workers; the probe never sees a 500', async () => {
    const address = '203.0.113.9';
    const body = (i: number) => JSON.stringify({ name: 'Flood', email: `flood-${process.pid}-${i}@example.org` });
    const sent = flood(REGISTRATION_FLOOD, (i) => ({
      method: 'POST',
      path: '/api/v1/developers',
      headers: [['Content-Type', 'application/json'], ['X-Forwarded-For', address]],
      body: body(i),
    }));
    const [statuses, probe] = await Promise.all([sent, probeWhile(sent)]);
    assert.deepEqual(Object.fromEntries(statuses), { 201: KEY_CREATION_LIMIT, 429: REGISTRATION_FLOOD - KEY_CREATION_LIMIT }, show(statuses));
    assert.deepEqual([...probe.keys()], [200], show(probe));

    const db = new Database(path.join(stack.dataDir, 'metering.db'), { readonly: true, fileMustExist: true });
    try {
      assert.deepEqual(db.prepare('SELECT count(*) AS n FROM registration_attempts WHERE ip = ?').get(address), { n: KEY_CREATION_LIMIT });
      assert.deepEqual(db.prepare('SELECT count(*) AS n FROM api_keys WHERE registrant_address = ?').get(address), { n: KEY_CREATION_LIMIT });
    } finally {
      db.close();
    }
    // Each worker sends metering at most the five its own window lets through (and the probe's registration).
    const samples = await metrics();
    const reachedMetering = total(samples, 'dict_metering_requests_total', { endpoint: 'register' });
    assert.ok(reachedMetering <= WORKERS * KEY_CREATION_LIMIT + 1, `${reachedMetering} registrations reached metering`);
    assert.ok(total(samples, 'dict_guard_refusals_total', { guard: 'registration' }) >= REGISTRATION_FLOOD - WORKERS * KEY_CREATION_LIMIT);
  });

  test('floods from one address - 2,000 random keys: all 401, a bounded number looked up; the probe never sees a 500', async () => {
    const before = total(await metrics(), 'dict_lease_requests_total', { outcome: 'invalid' });
    const sent = flood(KEY_FLOOD, () => ({
      method: 'GET',
      path: '/api/v1/stats',
      headers: [['X-API-Key', `svc_live_${randomBytes(20).toString('hex')}`], ['X-Forwarded-For', '203.0.113.10']],
    }));
    const [statuses, probe] = await Promise.all([sent, probeWhile(sent)]);
    assert.deepEqual(Object.fromEntries(statuses), { 401: KEY_FLOOD }, show(statuses));
    assert.deepEqual([...probe.keys()], [200], show(probe));
    const samples = await metrics();
    const lookedUp = total(samples, 'dict_lease_requests_total', { outcome: 'invalid' }) - before;
    // Per worker: the address's allowance of unknown keys, and the lookups already in flight when it ran out.
    assert.ok(lookedUp <= WORKERS * (UNKNOWN_KEYS_PER_ADDRESS + CONCURRENCY), `${lookedUp} random keys were looked up`);
    assert.ok(total(samples, 'dict_guard_refusals_total', { guard: 'unknown_keys' }) >= KEY_FLOOD - lookedUp);
  });

  test('floods from one address - 2,000 /healthz: all 200, a bounded number of pings; the probe never sees a 500', async () => {
    const pings = async () => total(await metrics(), 'dict_metering_requests_total', { endpoint: 'ping' });
    const before = await pings();
    const started = performance.now();
    const sent = flood(HEALTHZ_FLOOD, () => ({ method: 'GET', path: '/healthz' }));
    const [statuses, probe] = await Promise.all([sent, probeWhile(sent)]);
    const seconds = (performance.now() - started) / 1000;
    assert.deepEqual(Object.fromEntries(statuses), { 200: HEALTHZ_FLOOD }, show(statuses));
    assert.deepEqual([...probe.keys()], [200], show(probe));
    // One ping per worker per second (HEALTH_CACHE_MS), and one each for the scrapes.
    const sentPings = (await pings()) - before;
    assert.ok(sentPings <= WORKERS * (Math.ceil(seconds) + 2), `${sentPings} pings in ${seconds.toFixed(1)} s`);
  });
});
