// The host's lease requests against the real service: the workers of one host ask for the host's units with
// one request id, metering answers each repeat of it with the same units, and those units join the host's
// ledger once, whatever order the workers read their replies in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import type { NatsMeter } from '../../services/api/metering-client/nats-meter.ts';
import { call } from '../../services/shared/metering-protocol/client.ts';
import { utcDay } from '../../services/shared/metering-protocol/day.ts';
import { hashApiKey } from '../../services/shared/metering-protocol/keys.ts';
import { RPC, type LeaseReply } from '../../services/shared/metering-protocol/protocol.ts';
import { leaseSubject, shardOf } from '../../services/shared/metering-protocol/subjects.ts';
import type { MeteredEndpoint } from '../../services/shared/plans.ts';
import { startNats, type NatsHandle } from '../support/nats.ts';
import { registerKey, startMeteringInProcess, tempDir, workerMeter, type InProcessMetering } from './support.ts';

const WORDS: MeteredEndpoint = 'GET /api/v1/words';

describe('host lease requests', () => {
  let nats: NatsHandle;
  let svc: InProcessMetering;
  let a: NatsMeter;
  let b: NatsMeter;

  before(async () => {
    nats = await startNats();
    svc = await startMeteringInProcess(nats.url);
    const host = tempDir('host-requests');
    a = (await workerMeter(nats.url, 'host-req-a', undefined, host)) as NatsMeter;
    b = (await workerMeter(nats.url, 'host-req-b', undefined, host)) as NatsMeter;
  });
  after(async () => {
    await a.close();
    await b.close();
    await svc.stop();
    await nats.stop();
  });

  /** What a worker of the host sends when it asks for the host's units (lease-requests.ts), and metering's reply. */
  async function askForHost(worker: NatsMeter, hash: string, requestId: string): Promise<LeaseReply & { status: 'granted' }> {
    const day = utcDay(Date.now());
    const request = { holder: worker.allowance.host.hostId, worker: 'test', requestId, keyHash: hash, endpoint: WORDS, day, want: 1 };
    const reply = await call(svc.nc, RPC.lease, request, { subject: leaseSubject(shardOf(hash)) });
    assert.equal(reply.status, 'granted', JSON.stringify(reply));
    return reply as LeaseReply & { status: 'granted' };
  }

  let turn = 0;
  /** Admits the key's requests from the host's units until none is left, each in a turn of its own (none at volume). */
  function serveAll(worker: NatsMeter, hash: string): number[] {
    const units: number[] = [];
    for (;;) {
      const decision = worker.allowance.decide(hash, WORDS, Date.now(), turn++);
      if (decision.kind !== 'admitted') return units;
      units.push(decision.admission.unit);
    }
  }

  it("host lease requests - a worker that reads metering's answer to the host's request after a later grant joined hands out no unit twice", async () => {
    const { apiKey } = await registerKey(a);
    const hash = hashApiKey(apiKey);
    const day = utcDay(Date.now());
    // Both workers find nothing held and ask for the host at once, with the host's one pending id.
    const first = a.allowance.host.pendingRequest(hash, WORDS, day);
    assert.equal(b.allowance.host.pendingRequest(hash, WORDS, day), first);
    const toA = await askForHost(a, hash, first);
    const toB = await askForHost(b, hash, first);
    assert.deepEqual(toB.ranges, toA.ranges, 'metering answers the repeat with the same units');
    // Worker a applies its reply, serves every unit of the block, asks again and applies that grant too.
    a.allowance.apply(hash, WORDS, 'host', toA, Date.now(), first);
    const units = serveAll(a, hash);
    const second = a.allowance.host.pendingRequest(hash, WORDS, day);
    assert.notEqual(second, first, 'the grant retired the id it answered');
    a.allowance.apply(hash, WORDS, 'host', await askForHost(a, hash, second), Date.now(), second);
    // Only now does worker b, slow to read it, apply its copy of the first answer.
    b.allowance.apply(hash, WORDS, 'host', toB, Date.now(), first);
    units.push(...serveAll(b, hash));
    assert.equal(new Set(units).size, units.length, 'every unit is served once');
    const used = svc.db.prepare<[string], { used: number }>('SELECT used FROM quota_days WHERE key_id = ?').get(toA.key.id);
    assert.equal(units.length, used?.used, 'as many served as metering granted');
  });
});
