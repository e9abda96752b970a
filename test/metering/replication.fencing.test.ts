// Fencing of replicated metering: two copies of one shard (two hosts' files) append to one stream of a real
// 3-server JetStream cluster. A copy that another writer has overtaken (a deposed leader) cannot append on the
// state it holds; its group commit runs again on the caught-up state, so no unit is granted twice.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import type { NatsConnection } from 'nats';

import { GroupCommit } from '../../services/metering/db/group-commit.ts';
import { openMeteringDb } from '../../services/metering/db/open.ts';
import { openShardDbs } from '../../services/metering/db/shards.ts';
import { silentLog } from '../../services/metering/log.ts';
import { ChangeCapture, REPLICATED_TABLES } from '../../services/metering/replication/changes.ts';
import { LogMovedOnError, Replica } from '../../services/metering/replication/replica.ts';
import { QuotaStore, type GrantResult } from '../../services/metering/store/quota.ts';
import { countUnits } from '../../services/shared/metering-protocol/ranges.ts';
import { connectTo, startJetStreamCluster, type JetStreamCluster } from './replication-support.ts';
import { tempDir } from './support.ts';

const SLOT = { keyId: 'key_fencing', endpoint: 'GET /api/v1/words', day: '2026-01-01' } as const;
const LIMIT = 40;

async function copyOf(nc: NatsConnection, stream: { name: string; subject: string; maxAgeMs: number }) {
  const dir = tempDir('fence');
  const shardDb = openShardDbs(dir, openMeteringDb(path.join(dir, 'metering.db')))[0];
  const replica = new Replica(nc, await nc.jetstreamManager(), new ChangeCapture(shardDb, REPLICATED_TABLES.shard, stream.name), stream, silentLog);
  const commits = new GroupCommit(shardDb);
  commits.replicate(replica);
  const quota = new QuotaStore(shardDb);
  const grant = (holder: string) =>
    commits.run(() => quota.grant(SLOT, { holder, worker: holder, limit: LIMIT, want: 1, requestId: randomBytes(6).toString('hex') }, Date.now()));
  return { replica, grant };
}

const units = (r: GrantResult) => (r.status === 'granted' ? r.ranges : []);

describe('replicated metering fencing', { timeout: 60_000 }, () => {
  let cluster: JetStreamCluster;
  let nc: NatsConnection;

  before(async () => {
    cluster = await startJetStreamCluster();
    nc = await connectTo(cluster.servers[0].url);
  });
  after(async () => {
    await nc?.close();
    await cluster?.stop();
  });

  test('replicated metering fencing - a deposed leader cannot append, and its grant runs again on the new state', async () => {
    const id = randomBytes(4).toString('hex');
    const stream = { name: `TEST_FENCE_${id}`, subject: `test.fence.${id}`, maxAgeMs: 0 };
    const deposed = await copyOf(nc, stream);
    const leader = await copyOf(nc, stream);
    await deposed.replica.ensureStream(3);

    const first = await deposed.grant('holder-a');
    await leader.replica.catchUp();
    const second = await leader.grant('holder-b');
    assert.equal(leader.replica.capture.applied(), 2);

    // The deposed copy still holds the state of sequence 1: its append on it is refused, and the stream is unchanged.
    await assert.rejects(deposed.replica.append([], deposed.replica.capture.applied()), LogMovedOnError);
    const jsm = await nc.jetstreamManager();
    assert.equal((await jsm.streams.info(stream.name)).state.last_seq, 2);

    // Its next grant is refused by the stream, catches up, and is made again on the leader's state.
    const third = await deposed.grant('holder-a');
    const all = [first, second, third].flatMap(units);
    const seen = new Set<number>();
    for (const [from, to] of all) {
      for (let u = from; u <= to; u++) {
        assert.ok(!seen.has(u) && u <= LIMIT, `unit ${u} granted twice or past ${LIMIT}: ${JSON.stringify([first, second, third])}`);
        seen.add(u);
      }
    }
    assert.equal(seen.size, countUnits(all));
    assert.equal(deposed.replica.capture.applied(), 3);
    await jsm.streams.delete(stream.name);
  });
});
