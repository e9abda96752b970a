// Cost of replication per grant: blocks granted through one shard's group commit, with and without appending
// each group to a JetStream stream (3 replicas on a 3-server cluster on this machine). One at a time (the
// latency a worker's lease request sees in metering) and 64 at a time (groups grow while an append is in flight).
// Run: node --import tsx scripts/bench/replicated-grants.ts
import { randomBytes } from 'node:crypto';
import path from 'node:path';

import { GroupCommit } from '../../services/metering/db/group-commit.ts';
import { openMeteringDb } from '../../services/metering/db/open.ts';
import { openShardDbs } from '../../services/metering/db/shards.ts';
import { silentLog } from '../../services/metering/log.ts';
import { ChangeCapture, REPLICATED_TABLES } from '../../services/metering/replication/changes.ts';
import { Replica } from '../../services/metering/replication/replica.ts';
import { QuotaStore } from '../../services/metering/store/quota.ts';
import { connectTo, startJetStreamCluster } from '../../test/metering/replication-support.ts';
import { tempDir } from '../../test/metering/support.ts';

const SEQUENTIAL = 500;
const CONCURRENT = 4000;
const IN_FLIGHT = 64;

async function measure(commits: GroupCommit, quota: QuotaStore): Promise<{ p50: number; p99: number; perSecond: number }> {
  let n = 0;
  const grant = () => {
    n++;
    const slot = { keyId: `key_${n}`, endpoint: 'GET /api/v1/words' as const, day: '2026-01-01' };
    return commits.run(() => quota.grant(slot, { holder: 'h', worker: 'w', limit: 1000, want: 1, requestId: randomBytes(6).toString('hex') }, Date.now()));
  };
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t = performance.now();
    await grant();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const started = performance.now();
  let issued = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (issued < CONCURRENT) {
        issued++;
        await grant();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { p50: times[Math.floor(times.length / 2)], p99: times[Math.floor(times.length * 0.99)], perSecond: CONCURRENT / seconds };
}

function shard() {
  const dir = tempDir('bench-repl');
  const db = openShardDbs(dir, openMeteringDb(path.join(dir, 'metering.db')))[0];
  return { db, commits: new GroupCommit(db), quota: new QuotaStore(db) };
}

const cluster = await startJetStreamCluster();
const nc = await connectTo(cluster.servers[0].url);
try {
  const local = shard();
  const plain = await measure(local.commits, local.quota);
  const replicated = shard();
  const id = randomBytes(4).toString('hex');
  const stream = { name: `BENCH_GRANTS_${id}`, subject: `bench.grants.${id}`, maxAgeMs: 0 };
  const replica = new Replica(nc, await nc.jetstreamManager(), new ChangeCapture(replicated.db, REPLICATED_TABLES.shard, stream.name), stream, silentLog);
  await replica.ensureStream(3);
  replicated.commits.replicate(replica);
  const withStream = await measure(replicated.commits, replicated.quota);
  await (await nc.jetstreamManager()).streams.delete(stream.name);
  const row = (name: string, r: typeof plain) => `| ${name} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${Math.round(r.perSecond)} |`;
  console.log(['| grants | one at a time, p50 ms | p99 ms | 64 in flight, grants/s |', '|---|---|---|---|', row('local commit (fsync)', plain), row('appended to an R3 stream, then commit', withStream)].join('\n'));
} finally {
  await nc.close();
  await cluster.stop();
}
