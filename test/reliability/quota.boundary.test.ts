// Quota at the boundary: 1,000 concurrent requests on a key with exactly one request left give exactly one
// success over two workers; the daily count rolls over exactly at 00:00:00.000 UTC (injected clock).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { DAILY_LIMITS } from '../../services/shared/plans.ts';
import { usageByEndpoint } from '../support/faults.ts';
import { startInProcessStack, startStack } from '../support/stack.ts';
import { httpClient, pool } from './support/http.ts';

import type { RawResponse } from './support/http.ts';
import type { Backend } from '../support/stack.ts';

const FREE = DAILY_LIMITS.free;
const DAY_MS = 86_400_000;

const opsOf = (backend: Backend) => async (...args: string[]) => {
  const r = await backend.ops(...args);
  if (r.code !== 0) throw new Error(`ops ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
};

const used = (res: RawResponse) => Number(res.headers['x-ratelimit-used']);
const codeOf = (res: RawResponse) => (JSON.parse(res.text) as { error?: { code: string } }).error?.code;

describe('quota at the boundary', () => {
  test('one left - 1,000 concurrent requests over two workers give exactly one success', async (t) => {
    const stack = await startStack({ workers: 2 });
    t.after(() => stack.stop());
    const { apiKey, email } = await stack.register();
    const headers: [string, string][] = [['X-API-Key', apiKey]];
    const warm = httpClient(stack.baseUrl, 8);
    t.after(() => warm.close());

    // Use 999 of the 1,000 free requests of one endpoint, over several connections (both workers lease).
    const first = await pool(Array.from({ length: FREE - 1 }), 8, () => warm.send({ method: 'GET', path: '/api/v1/stats', headers }));
    assert.deepEqual([...new Set(first.map((r) => r.status))], [200]);
    assert.ok(first.every((r) => used(r) >= 1 && used(r) <= FREE), 'X-RateLimit-Used within 1..1,000');

    // 1,000 requests at once, over 500 connections.
    const burst = httpClient(stack.baseUrl, 500);
    t.after(() => burst.close());
    const results = await Promise.all(
      Array.from({ length: 1_000 }, () => burst.send({ method: 'GET', path: '/api/v1/stats', headers }, 30_000)),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    assert.equal(ok.length, 1, `exactly one success; statuses: ${JSON.stringify(countBy(results.map((r) => r.status)))}`);
    assert.equal(refused.length, 999);
    assert.equal(used(ok[0]), FREE);
    assert.equal(ok[0].headers['x-ratelimit-remaining'], '0');
    for (const r of refused) {
      assert.equal(codeOf(r), 'quota_exceeded', r.text);
      const details = (JSON.parse(r.text) as { error: { details: Record<string, unknown> } }).error.details;
      assert.deepEqual(details, { plan: 'free', endpoint: 'GET /api/v1/stats', used: FREE, limit: FREE }, r.text);
      assert.match(String(r.headers['retry-after']), /^\d+$/);
      assert.equal(r.headers['x-ratelimit-remaining'], '0');
      assert.equal(r.headers['x-ratelimit-limit'], String(FREE));
    }
    const usage = await usageByEndpoint(opsOf(stack), email);
    assert.equal(usage.get('GET /api/v1/stats')?.used, FREE, 'a refused request does not count');
  });

  test('rollover - exhausted at 23:59:59.999 UTC, counting again from 1 at 00:00:00.000 UTC', async (t) => {
    // The worker names the day by its clock and the metering service accepts a day either side of its own,
    // so the injected clock runs on today's real date.
    const midnight = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS;
    let clock = midnight - 60_000;
    const stack = await startInProcessStack({ now: () => clock, meterOnClock: true });
    t.after(() => stack.stop());
    const { apiKey, email } = await stack.register();
    const headers: [string, string][] = [['X-API-Key', apiKey]];
    const client = httpClient(stack.baseUrl, 8);
    t.after(() => client.close());
    const get = (path = '/api/v1/languages') => client.send({ method: 'GET', path, headers });

    const day = await pool(Array.from({ length: FREE }), 8, () => get());
    assert.deepEqual([...new Set(day.map((r) => r.status))], [200]);

    clock = midnight - 1_000;
    const s = await get();
    assert.equal(s.status, 429, s.text);
    assert.equal(s.headers['retry-after'], '1', 'one second to 00:00 UTC');

    clock = midnight - 1;
    const last = await get();
    assert.equal(last.status, 429, `23:59:59.999 is still the old day: ${last.text}`);
    assert.equal(last.headers['retry-after'], '1');
    // Another endpoint has its own count.
    assert.equal((await get('/api/v1/stats')).status, 200);

    clock = midnight;
    const next = await get();
    assert.equal(next.status, 200, `00:00:00.000 is a new day: ${next.text}`);
    assert.equal(used(next), 1);
    assert.equal(next.headers['x-ratelimit-remaining'], String(FREE - 1));

    const today = new Date(midnight - 1).toISOString().slice(0, 10);
    const tomorrow = new Date(midnight).toISOString().slice(0, 10);
    assert.equal((await usageByEndpoint(opsOf(stack), email, today)).get('GET /api/v1/languages')?.used, FREE);
    const nextDay = await usageByEndpoint(opsOf(stack), email, tomorrow);
    assert.ok((nextDay.get('GET /api/v1/languages')?.used ?? 0) >= 1, JSON.stringify([...nextDay.values()]));
  });
});

function countBy<T>(values: readonly T[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[String(v)] = (out[String(v)] ?? 0) + 1;
  return out;
}
