// Failing closed: with metering or NATS down and no allowance held, metered requests are refused with
// MeteringUnavailableError at once; blocks held for keys at volume keep serving; everything recovers by itself.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Meter } from '../../services/api/metering-client/meter.ts';
import { MeteringUnavailableError } from '../../services/shared/domain-errors.ts';
import { startNats, type NatsHandle } from '../support/nats.ts';
import { registerKey, startMeteringInProcess, tempDir, workerMeter, type InProcessMetering } from './support.ts';

const WORDS = 'GET /api/v1/words';
const STATS = 'GET /api/v1/stats';

/** Retries until `fn` resolves (recovery is asynchronous: reconnects, restarts). */
async function eventually<T>(fn: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(50);
    }
  }
}

describe('fail closed', () => {
  let nats: NatsHandle;
  let svc: InProcessMetering;
  let meter: Meter;
  const dataDir = tempDir('fail');

  before(async () => {
    nats = await startNats();
    svc = await startMeteringInProcess(nats.url, undefined, dataDir);
    meter = await workerMeter(nats.url, 'fail-a');
  });
  after(async () => {
    await meter.close();
    await svc.stop();
    await nats.stop();
  });

  /** Two requests at once: the key is at volume in the worker, which leases a block for it. */
  const holdBlock = (apiKey: string) => Promise.all([meter.admit(apiKey, WORDS), meter.admit(apiKey, WORDS)]);

  it('fail closed - metering down: held blocks serve, other keys are refused at once, then it recovers', async () => {
    const held = await registerKey(meter);
    const cold = await registerKey(meter);
    await holdBlock(held.apiKey);
    await svc.stop();
    assert.equal((await meter.health()).reachable, false);

    // No responders is reported by NATS immediately: no waiting for a timeout.
    const started = performance.now();
    await assert.rejects(meter.admit(cold.apiKey, WORDS), MeteringUnavailableError);
    await assert.rejects(meter.admit(held.apiKey, STATS), MeteringUnavailableError, 'no allowance held for this endpoint');
    await assert.rejects(meter.register({ name: 'x', email: 'down@example.org' }, '10.9.9.9'), MeteringUnavailableError);
    const elapsedMs = performance.now() - started;
    // Reported, not asserted (no timed assertions): three refusals without a timeout between them.
    console.log(`# three refusals while metering is down took ${elapsedMs.toFixed(1)} ms`);

    // The block leased before the outage keeps serving, counting on.
    const during = await meter.admit(held.apiKey, WORDS);
    assert.equal(during.used, 3);

    svc = await startMeteringInProcess(nats.url, undefined, dataDir);
    const back = await eventually(() => meter.admit(cold.apiKey, WORDS));
    assert.equal(back.used, 1);
    assert.deepEqual(await meter.health(), { reachable: true, canCommit: true });
  });

  it('fail closed - NATS down: refused at once without allowance, served from held blocks, recovers on reconnect', async () => {
    const held = await registerKey(meter);
    const cold = await registerKey(meter);
    await holdBlock(held.apiKey);
    await nats.kill();
    await assert.rejects(meter.admit(cold.apiKey, WORDS), MeteringUnavailableError);
    const during = await meter.admit(held.apiKey, WORDS);
    assert.equal(during.used, 3);

    await nats.restart();
    const back = await eventually(() => meter.admit(cold.apiKey, WORDS));
    assert.equal(back.used, 1);
    const heldAgain = await eventually(() => meter.admit(held.apiKey, WORDS));
    assert.ok(heldAgain.used >= 3, JSON.stringify(heldAgain));
  });
});
