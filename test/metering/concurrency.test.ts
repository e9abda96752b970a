// Admissions over two workers of one host (two NATS connections, one host allowance): one request at a time
// counted exactly from the host's shared units; under concurrency, exact successes, unique unit numbers, units
// handed over between holders, one lease request shared per key.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';

import { connect, type NatsConnection } from 'nats';

import { VOLUME_WINDOW_MS } from '../../services/api/metering-client/endpoint-lease.ts';
import type { Admission, Meter } from '../../services/api/metering-client/meter.ts';
import { SWEEP_INTERVAL_MS } from '../../services/api/metering-client/sweeper.ts';
import { QuotaExceededError } from '../../services/shared/domain-errors.ts';
import { SUBJECTS } from '../../services/shared/metering-protocol/subjects.ts';
import { startNats, type NatsHandle } from '../support/nats.ts';
import { registerKey, startMeteringInProcess, tempDir, workerMeter, type InProcessMetering } from './support.ts';

const WORDS = 'GET /api/v1/words';

function tally(results: PromiseSettledResult<Admission>[]) {
  const admitted = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<Admission>).value);
  const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
  return { used: admitted.map((x) => x.used), units: admitted.map((x) => x.unit), refused };
}

describe('leased allowance', () => {
  let nats: NatsHandle;
  let svc: InProcessMetering;
  let a: Meter;
  let b: Meter;
  let spy: NatsConnection;
  let leaseRequests = 0;
  /** The distinct lease requests: a retry after a reply lost to a slow turn keeps its id and is not a new ask. */
  const leaseIds = new Set<string>();

  before(async () => {
    nats = await startNats();
    svc = await startMeteringInProcess(nats.url);
    // Two workers of one host: they share the host's allowance.
    const host = tempDir('conc-host');
    a = await workerMeter(nats.url, 'conc-a', undefined, host);
    b = await workerMeter(nats.url, 'conc-b', undefined, host);
    // A plain subscriber (no queue group) sees every lease request without answering it.
    spy = await connect({ servers: nats.url });
    spy.subscribe(SUBJECTS.lease, {
      callback: (_err, msg) => {
        leaseRequests++;
        leaseIds.add((JSON.parse(new TextDecoder().decode(msg.data)) as { requestId: string }).requestId);
      },
    });
    await spy.flush();
  });
  after(async () => {
    await a.close();
    await b.close();
    await spy.close();
    await svc.stop();
    await nats.stop();
  });

  it('leased allowance - 1,200 concurrent requests on a fresh free key over two workers give exactly 1,000', async () => {
    const { apiKey } = await registerKey(a);
    const results = await Promise.allSettled(Array.from({ length: 1200 }, (_, i) => (i % 2 ? a : b).admit(apiKey, WORDS)));
    const { used, units, refused } = tally(results);
    assert.equal(units.length, 1000);
    assert.equal(new Set(units).size, 1000, 'every unit is used once');
    assert.equal(Math.min(...units), 1);
    assert.equal(Math.max(...units), 1000);
    assert.ok(used.every((n) => n >= 1 && n <= 1000), 'X-RateLimit-Used within 1..1000');
    assert.equal(refused.length, 200);
    for (const err of refused) assert.ok(err instanceof QuotaExceededError, String(err));
  });

  it('leased allowance - 1,000 concurrent requests on a key with 1 left give exactly one', async () => {
    const { apiKey } = await registerKey(a);
    for (let i = 0; i < 999; i++) await (i % 2 ? a : b).admit(apiKey, WORDS);
    const results = await Promise.allSettled(Array.from({ length: 1000 }, (_, i) => (i % 2 ? a : b).admit(apiKey, WORDS)));
    const { used, refused } = tally(results);
    assert.equal(used.length, 1, JSON.stringify(used));
    assert.equal(refused.length, 999);
    for (const err of refused) assert.ok(err instanceof QuotaExceededError, String(err));
  });

  it('leased allowance - units idle in one worker are handed to another that needs them', async () => {
    const { apiKey } = await registerKey(a);
    // a takes a block and stops using it; b then needs everything that is left.
    const first = await Promise.all(Array.from({ length: 10 }, () => a.admit(apiKey, WORDS)));
    const rest = await Promise.allSettled(Array.from({ length: 1000 }, () => b.admit(apiKey, WORDS)));
    const { units, refused } = tally(rest);
    assert.equal(units.length, 990, 'no success withheld while allowance remains');
    assert.equal(refused.length, 10);
    assert.equal(new Set([...units, ...first.map((x) => x.unit)]).size, 1000);
  });

  it('leased allowance - concurrent admissions in one worker share one lease request', async () => {
    const { apiKey } = await registerKey(a);
    await spy.flush();
    const before = leaseRequests;
    const admitted = await Promise.all(Array.from({ length: 100 }, () => a.admit(apiKey, 'GET /api/v1/languages')));
    await spy.flush();
    // One round trip for the 100 (a block of 125); then, with a fifth of it left, the host asks ahead.
    assert.ok(leaseRequests - before <= 2, `${leaseRequests - before} round trips for 100 concurrent admissions`);
    assert.deepEqual(
      admitted.map((x) => x.used).sort((x, y) => x - y),
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
  });

  it('leased allowance - a key at volume gets its next block before the held one runs out', async () => {
    const { apiKey } = await registerKey(a);
    await svc.db.prepare("UPDATE api_keys SET plan = 'institution' WHERE prefix = ?").run(apiKey.slice(0, 17));
    const endpoint = 'GET /api/v1/stats';
    // Two requests at once: at volume, a block.
    const first = await Promise.all([a.admit(apiKey, endpoint), a.admit(apiKey, endpoint)]);
    await spy.flush();
    const before = leaseRequests;
    const used = first.map((x) => x.used);
    // Decided in the worker, from its own block or (settled at the end of the turn) from the host's units.
    const local = async (n: number) => {
      const admissions: (Admission | Promise<Admission>)[] = [];
      for (let i = 0; i < n; i++) {
        const admission = a.admitNow?.(apiKey, endpoint);
        assert.ok(admission, `admission ${used.length + admissions.length + 1} had to wait for a lease`);
        admissions.push(admission);
      }
      used.push(...(await Promise.all(admissions)).map((x) => x.used));
    };
    // A block of 1,000: past half of it the worker asks for the next one, without waiting for it.
    await local(759);
    for (let i = 0; i < 200 && leaseRequests === before; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(leaseRequests - before, 1, 'one lease request sent while units were still held');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The rest of the first block and a whole second one, all decided in the worker.
    await local(1_200);
    assert.equal(new Set(used).size, used.length, 'every X-RateLimit-Used is unique');
  });

  it("leased allowance - a key at volume asks ahead for its rate's worth of units, and is served from them", async () => {
    let clock = Date.now();
    const c = await workerMeter(nats.url, 'conc-rate', () => clock);
    const wants: number[] = [];
    const watch = spy.subscribe(SUBJECTS.lease, {
      callback: (_err, msg) => wants.push((JSON.parse(new TextDecoder().decode(msg.data)) as { want: number }).want),
    });
    try {
      await spy.flush();
      const { apiKey } = await registerKey(c);
      await svc.db.prepare("UPDATE api_keys SET plan = 'institution' WHERE prefix = ?").run(apiKey.slice(0, 17));
      const endpoint = 'GET /api/v1/word-of-the-day';
      const used = (await Promise.all([c.admit(apiKey, endpoint), c.admit(apiKey, endpoint)])).map((x) => x.used);
      await spy.flush();
      assert.deepEqual(wants, [2], 'the first requests know no rate yet: a block for the two of them');
      // 20 ms later, past half of the 1,000-unit block: about 500 units in 20 ms, so half a second is ~12,500.
      clock += 20;
      const taken = Array.from({ length: 599 }, () => c.admitNow?.(apiKey, endpoint));
      used.push(...(await Promise.all(taken)).map((x) => x?.used ?? 0));
      for (let i = 0; i < 200 && wants.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(wants.length, 2);
      assert.ok(wants[1] >= 10_000 && wants[1] <= 15_000, `refill asked for ${wants[1]}`);
      // What is left of the first block and the rate-sized one, all decided in the worker without waiting.
      const admissions: (Admission | Promise<Admission>)[] = [];
      for (let i = 0; i < 10_000; i++) {
        const admission = c.admitNow?.(apiKey, endpoint);
        assert.ok(admission, `admission ${used.length + admissions.length + 1} had to wait for a lease`);
        admissions.push(admission);
      }
      used.push(...(await Promise.all(admissions)).map((x) => x.used));
      assert.ok(!used.includes(0));
      assert.equal(new Set(used).size, used.length, 'every X-RateLimit-Used is unique');
    } finally {
      watch.unsubscribe();
      await c.close();
    }
  });

  it('leased allowance - refilling ahead over two workers still counts exactly to the limit', async () => {
    const { apiKey } = await registerKey(a);
    // A team key with 3,000 left: blocks of 375 or more, refilled ahead while both workers drain them.
    await svc.db.prepare("UPDATE api_keys SET plan = 'team' WHERE prefix = ?").run(apiKey.slice(0, 17));
    for (let i = 0; i < 47_000; i += 1000) {
      await Promise.all(Array.from({ length: 1000 }, (_, j) => (j % 2 ? a : b).admit(apiKey, 'GET /api/v1/languages')));
    }
    // In batches of 500 over both workers, as the 47,000 before: one burst of 4,000 could outwait the admission
    // deadline on a busy machine, and a request refused that way fails closed instead of counting.
    const results: PromiseSettledResult<Admission>[] = [];
    for (let i = 0; i < 4000; i += 500) {
      results.push(...(await Promise.allSettled(Array.from({ length: 500 }, (_, j) => (j % 2 ? a : b).admit(apiKey, 'GET /api/v1/languages')))));
    }
    const { used, refused } = tally(results);
    const reasons = new Map<string, number>();
    for (const r of refused) reasons.set(String(r), (reasons.get(String(r)) ?? 0) + 1);
    assert.equal(used.length, 3000, `exactly what was left; refused: ${JSON.stringify([...reasons])}`);
    assert.equal(refused.length, 1000);
    assert.ok(Math.max(...used) <= 50_000);
  });

  it('leased allowance - a steady stream from concurrent clients is admitted locally, with few round trips', async () => {
    const { apiKey } = await registerKey(a);
    // Plans are per key (a key issued later starts free): raise this one.
    await svc.db.prepare("UPDATE api_keys SET plan = 'institution' WHERE prefix = ?").run(apiKey.slice(0, 17));
    await spy.flush();
    const before = leaseRequests;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 5_000; i++) await a.admit(apiKey, 'GET /api/v1/word-of-the-day');
      }),
    );
    await spy.flush();
    const trips = leaseRequests - before;
    assert.ok(trips <= 25, `${trips} requests to the metering service for 20,000 admissions`);
  });

  it("exact counting - one request at a time takes the host's shared units, whichever worker answers: 1, 2, 3, …", async () => {
    const { apiKey } = await registerKey(a);
    await spy.flush();
    const before = leaseIds.size;
    const seen: Admission[] = [];
    for (let i = 0; i < 300; i++) {
      seen.push(await (i % 3 ? a : b).admit(apiKey, WORDS));
      // A client's next request arrives in another read of the socket: another event-loop turn.
      await nextTurn();
    }
    await spy.flush();
    assert.deepEqual(seen.map((x) => x.used), Array.from({ length: 300 }, (_, i) => i + 1), JSON.stringify(seen.slice(0, 5)));
    assert.deepEqual(seen.map((x) => x.remaining), Array.from({ length: 300 }, (_, i) => 999 - i));
    // Blocks of an eighth of what is left (125, 109, 95, …), each asked for ahead by the host.
    assert.ok(leaseIds.size - before <= 4, `${leaseIds.size - before} lease requests for 300 admissions`);
  });

  it('exact counting - after a burst the blocks go back within a second, and the count is exact again', async () => {
    const { apiKey } = await registerKey(a);
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).admit(apiKey, WORDS)));
    assert.equal(burst.length, 40);
    // Both workers hold blocks of the key; without two of its requests meeting, they go back.
    await new Promise((resolve) => setTimeout(resolve, VOLUME_WINDOW_MS + 2 * SWEEP_INTERVAL_MS + 200));
    const next: number[] = [];
    for (let i = 0; i < 10; i++) next.push((await (i % 2 ? a : b).admit(apiKey, WORDS)).used);
    assert.deepEqual(next, Array.from({ length: 10 }, (_, i) => 41 + i));
  });
});
