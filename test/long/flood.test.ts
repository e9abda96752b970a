// The long floods: wrk floods the stack from one address for 30 s each (registrations, random keys, /healthz:
// scripts/bench/wrk/flood.lua, 400 connections) while a client on another key sends one request at a time and
// /healthz is polled: the probe sees only 200s, /healthz stays 200, and metering.db keeps five rows for the
// address. The short version is test/reliability/abuse.flood.test.ts; the probe's latency is the bench's
// (the floods section).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import Database from 'better-sqlite3';

import { runWrk } from '../../scripts/bench/wrk.ts';
import { KEY_CREATION_LIMIT } from '../../services/shared/plans.ts';
import { startStack } from '../support/stack.ts';

import type { Stack } from '../support/stack.ts';

const FLOOD_SECONDS = 30;
const CONNECTIONS = 400;
/** flood.lua's client address. */
const FLOOD_ADDRESS = '203.0.113.50';
/** A free key's day is 1,000 requests per endpoint: the probe takes a key per flood and stops short of it. */
const PROBE_MAX = 900;

let stack: Stack;
before(async () => {
  // Errors only: a line per flooded request would fill this process's memory with the workers' output.
  stack = await startStack({ workers: 2, env: { REQUEST_LOG: 'errors' } });
});
after(async () => {
  await stack?.stop();
});

/** One request at a time on a fresh key, and /healthz every 500 ms, until `done` settles: each status's count. */
async function probeWhile(done: Promise<unknown>): Promise<{ probe: Record<number, number>; healthz: Record<number, number> }> {
  const { apiKey } = await stack.register();
  let finished = false;
  void done.finally(() => (finished = true));
  const probe: Record<number, number> = {};
  const healthz: Record<number, number> = {};
  const polling = (async () => {
    while (!finished) {
      const res = await fetch(`${stack.baseUrl}/healthz`);
      await res.arrayBuffer();
      healthz[res.status] = (healthz[res.status] ?? 0) + 1;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
  for (let i = 0; i < PROBE_MAX && !finished; i++) {
    const res = await fetch(`${stack.baseUrl}/api/v1/languages`, { headers: { 'x-api-key': apiKey } });
    await res.arrayBuffer();
    probe[res.status] = (probe[res.status] ?? 0) + 1;
    // About 30 a second: the key's day lasts the flood.
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  await done;
  await polling;
  return { probe, healthz };
}

describe('long floods from one address', () => {
  for (const flood of ['registrations', 'keys', 'healthz'] as const) {
    it(`long floods from one address - ${FLOOD_SECONDS} s of ${flood} on ${CONNECTIONS} connections: the probe and /healthz see only 200s`, async () => {
      const load = runWrk(
        { base: stack.baseUrl, apiKeys: '', script: { name: 'flood.lua', args: [flood] } },
        { threads: 2, connections: CONNECTIONS, seconds: FLOOD_SECONDS, prefix: [] },
      );
      const { probe, healthz } = await probeWhile(load);
      const wrk = await load;
      const shown = JSON.stringify({ probe, healthz, wrk: { requests: wrk.requests, rps: Math.round(wrk.rps), non2xx: wrk.non2xx, socketErrors: wrk.socketErrors } });
      assert.deepEqual(Object.keys(probe), ['200'], shown);
      assert.deepEqual(Object.keys(healthz), ['200'], shown);
      assert.ok(wrk.requests > 1_000, shown);
    });
  }

  it('long floods from one address - metering.db holds the five keys issued to the address, and a row each', () => {
    const db = new Database(path.join(stack.dataDir, 'metering.db'), { readonly: true, fileMustExist: true });
    try {
      assert.deepEqual(db.prepare('SELECT count(*) AS n FROM registration_attempts WHERE ip = ?').get(FLOOD_ADDRESS), { n: KEY_CREATION_LIMIT });
      assert.deepEqual(db.prepare('SELECT count(*) AS n FROM api_keys WHERE registrant_address = ?').get(FLOOD_ADDRESS), { n: KEY_CREATION_LIMIT });
    } finally {
      db.close();
    }
  });
});
