// Daily quota arithmetic with an injected clock: limits per key and endpoint, the 00:00 UTC reset,
// Retry-After, refused requests not counting, plan changes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { connect, type NatsConnection } from 'nats';

import type { Meter } from '../../services/api/metering-client/meter.ts';
import { QuotaExceededError } from '../../services/shared/domain-errors.ts';
import { call } from '../../services/shared/metering-protocol/client.ts';
import { OPS } from '../../services/shared/metering-protocol/ops-protocol.ts';
import { startNats, type NatsHandle } from '../support/nats.ts';
import { registerKey, startMeteringInProcess, workerMeter, type InProcessMetering } from './support.ts';

const WORDS = 'GET /api/v1/words';
const STATS = 'GET /api/v1/stats';

describe('quota', () => {
  let nats: NatsHandle;
  let svc: InProcessMetering;
  let a: Meter;
  let b: Meter;
  let ops: NatsConnection;
  let clock = Date.parse('2025-03-10T12:00:00.000Z');
  const now = () => clock;

  before(async () => {
    nats = await startNats();
    svc = await startMeteringInProcess(nats.url, now);
    a = await workerMeter(nats.url, 'quota-a', now);
    b = await workerMeter(nats.url, 'quota-b', now);
    ops = await connect({ servers: nats.url });
  });
  after(async () => {
    await a.close();
    await b.close();
    await ops.close();
    await svc.stop();
    await nats.stop();
  });

  async function useUp(meter: Meter, apiKey: string, endpoint: typeof WORDS | typeof STATS, n: number) {
    const used: number[] = [];
    for (let i = 0; i < n; i++) used.push((await meter.admit(apiKey, endpoint)).used);
    return used;
  }

  it('quota - the free limit holds at 23:59:59.999 and resets at 00:00:00.000 UTC', async () => {
    clock = Date.parse('2025-03-10T23:59:00.000Z');
    const { apiKey } = await registerKey(a);
    await useUp(a, apiKey, WORDS, 600);
    clock = Date.parse('2025-03-10T23:59:59.999Z');
    const used = await useUp(b, apiKey, WORDS, 400);
    assert.equal(Math.max(...used), 1000);
    const refused = await a.admit(apiKey, WORDS).catch((e: unknown) => e);
    assert.ok(refused instanceof QuotaExceededError, String(refused));
    assert.deepEqual(refused.state, {
      plan: 'free',
      endpoint: WORDS,
      limit: 1000,
      used: 1000,
      retryAfterSeconds: 1,
    });
    clock = Date.parse('2025-03-11T00:00:00.000Z');
    const fresh = await a.admit(apiKey, WORDS);
    assert.deepEqual(fresh, { keyPrefix: apiKey.slice(0, 17), plan: 'free', limit: 1000, used: 1, remaining: 999, unit: 1 });
    clock = Date.parse('2025-03-11T00:00:00.001Z');
    const second = await b.admit(apiKey, WORDS);
    assert.ok(second.used >= 2 && second.used <= 1000, JSON.stringify(second));
  });

  it('quota - Retry-After counts the seconds to the next 00:00 UTC', async () => {
    clock = Date.parse('2025-03-12T00:00:00.000Z');
    const { apiKey } = await registerKey(a);
    await useUp(a, apiKey, WORDS, 1000);
    const refused = await a.admit(apiKey, WORDS).catch((e: unknown) => e);
    assert.ok(refused instanceof QuotaExceededError);
    assert.equal(refused.state.retryAfterSeconds, 86_400);
  });

  it('quota - limits are per endpoint, and refused requests do not count', async () => {
    clock = Date.parse('2025-03-13T08:00:00.000Z');
    const { apiKey, developer } = await registerKey(a);
    await useUp(a, apiKey, WORDS, 1000);
    for (let i = 0; i < 50; i++) await assert.rejects(a.admit(apiKey, WORDS), QuotaExceededError);
    const stats = await a.admit(apiKey, STATS);
    assert.equal(stats.used, 1, 'another endpoint has its own allowance');
    await a.close();
    a = await workerMeter(nats.url, 'quota-a2', now);
    const usage = await call(ops, OPS.usage, { email: developer.email, date: '2025-03-13' });
    const words = usage.rows.find((r) => r.endpoint === WORDS);
    assert.equal(words?.used, 1000, JSON.stringify(usage));
  });

  it('quota - a plan change applies the new limit on every worker', async () => {
    clock = Date.parse('2025-03-14T08:00:00.000Z');
    const { apiKey, developer } = await registerKey(a);
    await useUp(a, apiKey, WORDS, 1000);
    await assert.rejects(b.admit(apiKey, WORDS), QuotaExceededError);
    await call(ops, OPS.developersSetPlan, { email: developer.email, plan: 'team', allKeys: true });
    for (const meter of [a, b]) {
      const admitted = await eventually(() => meter.admit(apiKey, WORDS));
      assert.equal(admitted.limit, 50_000);
      assert.equal(admitted.plan, 'team');
      assert.ok(admitted.used > 1000, JSON.stringify(admitted));
    }
    await call(ops, OPS.developersSetPlan, { email: developer.email, plan: 'free', allKeys: true });
    const back = await eventually(() => a.admit(apiKey, WORDS).then(() => assert.fail('admitted'), (e: unknown) => e));
    assert.ok(back instanceof QuotaExceededError, String(back));
    assert.equal(back.state.limit, 1000);
  });
});

/** Retries `fn` for up to a second (the spec's propagation bound) until it resolves. */
async function eventually<T>(fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 1000;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
