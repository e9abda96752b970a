// The metering process as a child: kill -9 mid-load loses no granted or counted unit and numbering
// continues after restart; no plaintext key reaches DATA_DIR or the logs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { connect } from 'nats';

import type { Meter } from '../../services/api/metering-client/meter.ts';
import { MeteringUnavailableError, QuotaExceededError } from '../../services/shared/domain-errors.ts';
import { call } from '../../services/shared/metering-protocol/client.ts';
import { OPS } from '../../services/shared/metering-protocol/ops-protocol.ts';
import { startNats, type NatsHandle } from '../support/nats.ts';
import { registerKey, spawnMetering, tempDir, workerMeter, type ChildMetering } from './support.ts';

const WORDS = 'GET /api/v1/words';
const CLIENTS = 16;

/** Each test has its own nats-server, so that no other metering process answers on it. */
async function setup(t: TestContext): Promise<{ nats: NatsHandle; children: ChildMetering[] }> {
  const nats = await startNats();
  const children: ChildMetering[] = [];
  t.after(async () => {
    for (const c of children) await c.stop().catch(() => undefined);
    await nats.stop();
  });
  return { nats, children };
}

describe('durability', () => {
  it('durability - kill -9 mid-load loses no unit and numbering continues after restart', async (t) => {
    const { nats, children } = await setup(t);
    const dataDir = tempDir('kill');
    children.push(await spawnMetering(nats.url, dataDir));
    const workers = [await workerMeter(nats.url, 'kill-a'), await workerMeter(nats.url, 'kill-b')];
    const { apiKey, developer } = await registerKey(workers[0]);

    const units: number[] = [];
    let unavailable = 0;
    let killed = false;
    const client = async (w: Meter) => {
      for (;;) {
        try {
          units.push((await w.admit(apiKey, WORDS)).unit);
        } catch (err) {
          if (err instanceof QuotaExceededError) return;
          if (!(err instanceof MeteringUnavailableError)) throw err;
          unavailable++;
          await sleep(5);
        }
        // Yield now and then so that the kill happens while requests are in flight.
        if (units.length % 7 === 0) await sleep(1);
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(workers[i % 2])));
    while (units.length < 300) await sleep(1);
    await children[children.length - 1].kill9();
    killed = true;
    const servedWhileDown = units.length;
    await sleep(200);
    children.push(await spawnMetering(nats.url, dataDir));
    await load;

    assert.ok(killed);
    console.log(`# ${servedWhileDown} served before the kill, ${unavailable} refused as unavailable until the restart`);
    assert.equal(units.length, 1000, `successes (${unavailable} refused as unavailable, ${servedWhileDown} before the kill)`);
    assert.equal(new Set(units).size, 1000, 'every unit used once, across the restart');
    assert.equal(Math.max(...units), 1000);
    for (const w of workers) await w.close();
    const ops = await connect({ servers: nats.url });
    const usage = await call(ops, OPS.usage, { email: developer.email });
    await ops.close();
    assert.equal(usage.rows.find((r) => r.endpoint === WORDS)?.used, 1000, JSON.stringify(usage));
  });

  it('durability - no plaintext key in DATA_DIR files or the logs', async (t) => {
    const { nats, children } = await setup(t);
    const dataDir = tempDir('plain');
    const child = await spawnMetering(nats.url, dataDir);
    children.push(child);
    // The worker's host keeps its allowance in the same DATA_DIR: checked too.
    const w = await workerMeter(nats.url, 'plain-a', undefined, dataDir);
    const keys: string[] = [];
    for (let i = 0; i < 5; i++) {
      const reg = await registerKey(w, i < 3 ? 'same@example.org' : undefined);
      keys.push(reg.apiKey);
      await w.admit(reg.apiKey, WORDS);
    }
    await w.admit(`svc_live_${'f'.repeat(40)}`, WORDS).catch(() => undefined);
    await w.close();
    await child.stop();
    const files = fs
      .readdirSync(dataDir, { recursive: true, encoding: 'utf8' })
      .map((f) => path.join(dataDir, f))
      .filter((f) => fs.statSync(f).isFile());
    assert.ok(files.some((f) => f.endsWith('metering.db')), files.join(', '));
    const blobs = [...files.map((f) => fs.readFileSync(f).toString('latin1')), child.output()];
    for (const key of keys) {
      const secret = key.slice(17);
      for (const blob of blobs) assert.ok(!blob.includes(secret), 'the secret part of a key was written out');
    }
    assert.ok(child.output().includes('metering service ready'), 'the log was captured');
  });
});
