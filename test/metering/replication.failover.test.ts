// Replicated metering (METERING_REPLICATION=jetstream) on a real 3-server JetStream cluster: two "hosts", each a
// nats-server of the cluster, a DATA_DIR and a metering process. The host whose process serves the shards loses
// both (kill -9); the other host's process takes the shards over with every acknowledged registration, key
// change and grant, and never grants a unit twice or past the limit.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import type { NatsConnection } from 'nats';

import { call } from '../../services/shared/metering-protocol/client.ts';
import { utcDay } from '../../services/shared/metering-protocol/day.ts';
import { hashApiKey } from '../../services/shared/metering-protocol/keys.ts';
import { OPS } from '../../services/shared/metering-protocol/ops-protocol.ts';
import { countUnits } from '../../services/shared/metering-protocol/ranges.ts';
import { RPC, type LeaseReply } from '../../services/shared/metering-protocol/protocol.ts';
import { leaseSubject, shardOf } from '../../services/shared/metering-protocol/subjects.ts';
import { connectTo, spawnReplicatedMetering, startJetStreamCluster, type JetStreamCluster } from './replication-support.ts';
import { freshIp, type ChildMetering } from './support.ts';

const ENDPOINT = 'GET /api/v1/words';
/** The shard lease's time to live (METERING_LEASE_TTL_MS): a standby takes the shard once it lapses. */
const LEASE_TTL_MS = 2000;
/**
 * nats-server 2.9's Raft waits 4 to 9 s (fixed in server/raft.go) before electing a new leader for a stream whose
 * leader was on the lost server; appends to it, and the lease bucket's writes, wait for that election.
 */
const RAFT_ELECTION_MAX_MS = 9000;
const TAKEOVER_BOUND_MS = LEASE_TTL_MS + RAFT_ELECTION_MAX_MS + 1000;

async function register(nc: NatsConnection, email: string) {
  return call(nc, RPC.register, { input: { name: 'Replicated Developer', email }, clientIp: freshIp() });
}

function lease(nc: NatsConnection, apiKey: string, holder: string, want: number): Promise<LeaseReply> {
  const keyHash = hashApiKey(apiKey);
  return call(
    nc,
    RPC.lease,
    { holder, worker: holder, keyHash, endpoint: ENDPOINT, day: utcDay(Date.now()), requestId: randomBytes(8).toString('hex'), want },
    { subject: leaseSubject(shardOf(keyHash)), timeoutMs: 1000 },
  );
}

/** Leases until one is answered (the shard may be between leaders); the time it took. */
async function leaseWhenServed(nc: NatsConnection, apiKey: string, holder: string, boundMs: number): Promise<{ reply: LeaseReply; ms: number }> {
  const started = Date.now();
  for (;;) {
    try {
      return { reply: await lease(nc, apiKey, holder, 1), ms: Date.now() - started };
    } catch (error) {
      if (Date.now() - started > boundMs * 3) throw error;
      await sleep(50);
    }
  }
}

describe('replicated metering', { timeout: 90_000 }, () => {
  let cluster: JetStreamCluster;
  let first: ChildMetering;
  let second: ChildMetering;
  let ncSurvivor: NatsConnection;

  before(async () => {
    cluster = await startJetStreamCluster();
  });
  after(async () => {
    await ncSurvivor?.close().catch(() => undefined);
    await second?.stop().catch(() => undefined);
    await first?.kill9().catch(() => undefined);
    await cluster?.stop();
  });

  test('replicated metering - a registration and a key change acknowledged before the serving host is lost are served by the other host once the lease lapses and the streams have leaders', async (t) => {
    first = await spawnReplicatedMetering(cluster.servers[0].url, undefined, LEASE_TTL_MS);
    // Wait until the first process serves the shards (it holds every lease before the second starts).
    const ncFirst = await connectTo(cluster.servers[0].url);
    t.after(() => ncFirst.close().catch(() => undefined));
    const warm = await register(ncFirst, `warm-${Date.now()}@example.org`);
    await leaseWhenServed(ncFirst, warm.apiKey, 'warm-holder', TAKEOVER_BOUND_MS);
    second = await spawnReplicatedMetering(cluster.servers[1].url, undefined, LEASE_TTL_MS);

    const kept = await register(ncFirst, `kept-${Date.now()}@example.org`);
    const revoked = await register(ncFirst, `revoked-${Date.now()}@example.org`);
    await call(ncFirst, OPS.keysRevoke, { keyPrefix: revoked.keyPrefix });
    const granted = await lease(ncFirst, kept.apiKey, 'holder-a', 10);
    assert.equal(granted.status, 'granted', JSON.stringify(granted));
    await first.kill9();
    await cluster.servers[0].kill();
    ncSurvivor = await connectTo(cluster.servers[2].url);
    const { reply, ms } = await leaseWhenServed(ncSurvivor, kept.apiKey, 'holder-b', TAKEOVER_BOUND_MS).catch((error: unknown) => {
      throw new Error(`not served after the loss: ${String(error)}\nsurvivor's log:\n${second.output().slice(-4000)}`);
    });
    t.diagnostic(`served again ${ms} ms after the loss`);
    assert.ok(ms <= TAKEOVER_BOUND_MS, `served again after ${ms} ms`);
    assert.equal(reply.status, 'granted', JSON.stringify(reply));
    if (reply.status !== 'granted' || granted.status !== 'granted') return;
    // The grant acknowledged before the loss is counted: the new block starts after it.
    assert.equal(reply.used - countUnits(reply.ranges), granted.used, JSON.stringify({ granted, reply }));
    assert.ok(reply.ranges[0][0] > granted.ranges.at(-1)![1], JSON.stringify({ granted, reply }));
    // The revoked key may be of another shard, whose stream may still be electing its leader.
    const refused = await leaseWhenServed(ncSurvivor, revoked.apiKey, 'holder-b', TAKEOVER_BOUND_MS);
    assert.ok(refused.ms <= TAKEOVER_BOUND_MS, `served again after ${refused.ms} ms`);
    assert.equal(refused.reply.status, 'invalid', JSON.stringify(refused));
    // The accounts stream may still be electing a leader after the loss (nats-server 2.9: several seconds).
    const shown = await call(ncSurvivor, OPS.developersShow, { email: revoked.developer.email }, { timeoutMs: 15_000 });
    assert.equal(shown.keys[0].status, 'revoked', JSON.stringify(shown));
  });
});
