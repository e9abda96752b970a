// Which host of a netns cluster serves replicated metering's shards: the shard leases in the bucket
// `dict-metering-leases` name their holder `<worker>-<pid>-<random>`, and the pid tells the host (every host's
// processes live in its own network namespace, whose pids `ip netns pids` lists).
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

import { connect } from 'nats';

import { SHARD_COUNT } from '../../services/shared/metering-protocol/subjects.ts';
import { LEASE_BUCKET } from '../../services/metering/replication/shard-leases.ts';
import { natsAuthFor } from '../../services/shared/nats-auth/credentials.ts';

import type { NetnsCluster } from './netns-harness.ts';

function pidsIn(netns: string): Set<number> {
  return new Set(execFileSync('ip', ['netns', 'pids', netns], { encoding: 'utf8' }).split(/\s+/).filter(Boolean).map(Number));
}

/** Waits until every shard's lease is held; returns, per host index, the shards its metering serves. */
export async function waitShardHolders(cluster: NetnsCluster, timeoutMs: number): Promise<number[][]> {
  const deadline = Date.now() + timeoutMs;
  const nc = await connect({ servers: cluster.natsUrl.split(','), ...natsAuthFor(cluster.hosts[0].dataDir, 'metering'), maxReconnectAttempts: -1 });
  try {
    const kv = await nc.jetstream().views.kv(LEASE_BUCKET, { bindOnly: true });
    for (;;) {
      const byHost: number[][] = cluster.hosts.map(() => []);
      const pids = cluster.hosts.map((h) => pidsIn(h.netns));
      for (let shard = 0; shard < SHARD_COUNT; shard++) {
        const entry = await kv.get(`shard-${String(shard).padStart(2, '0')}`).catch(() => null);
        const pid = entry?.operation === 'PUT' ? Number(/-(\d+)-[0-9a-f]+$/.exec(entry.string())?.[1]) : NaN;
        const host = pids.findIndex((p) => p.has(pid));
        if (host >= 0) byHost[host].push(shard);
      }
      if (byHost.flat().length === SHARD_COUNT) return byHost;
      if (Date.now() > deadline) throw new Error(`shard leases not all held after ${timeoutMs} ms: ${JSON.stringify(byHost)}`);
      await sleep(250);
    }
  } finally {
    await nc.close();
  }
}
