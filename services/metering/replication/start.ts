// Metering's state replicated through the cluster's JetStream: metering.db's accounts and each shard's quota
// each have a stream with 3 replicas, which this process's copies follow and its group commits append to.
import type { NatsConnection } from 'nats';

import { METERING_PREFIX, SHARD_COUNT } from '../../shared/metering-protocol/subjects.ts';
import type { Db } from '../db/open.ts';
import type { Log } from '../log.ts';
import { ChangeCapture, REPLICATED_TABLES } from './changes.ts';
import { JETSTREAM_API_TIMEOUT_MS, Replica, type StreamSpec } from './replica.ts';
import { holdShardLeases, openLeaseBucket, type ShardLeaseEvents, type ShardLeases } from './shard-leases.ts';

/**
 * A shard's quota messages are kept this long: a grant names a day within one of the day it was made, so a
 * message older than this concerns a day no lease is asked for any more; a copy made later rebuilds today's
 * counts in full and lacks only older days' usage. Registrations and key changes are kept for good.
 */
export const SHARD_STREAM_MAX_AGE_MS = 3 * 86_400_000;

export const ACCOUNTS_STREAM: StreamSpec = { name: 'DICT_METERING_ACCOUNTS', subject: `${METERING_PREFIX}.state.accounts`, maxAgeMs: 0 };

export function shardStream(shard: number): StreamSpec {
  const nn = String(shard).padStart(2, '0');
  return { name: `DICT_METERING_SHARD_${nn}`, subject: `${METERING_PREFIX}.state.shards.${nn}`, maxAgeMs: SHARD_STREAM_MAX_AGE_MS };
}

export interface ReplicationSettings {
  /** Replicas of each stream and of the lease bucket (METERING_REPLICAS): 3 survives the loss of any one server. */
  replicas: number;
  /** METERING_LEASE_TTL_MS */
  leaseTtlMs: number;
  /** This process's name in the leases (unique across hosts). */
  holder: string;
}

export interface Replication {
  accounts: Replica;
  /** The replicas of the shards this process may serve. */
  shards: ReadonlyMap<number, Replica>;
  /** Competes for the shards' leases until stop(). */
  holdLeases(events: ShardLeaseEvents): Promise<ShardLeases>;
  /** Brings metering.db up to the accounts stream's end (callers at the same time share one catch-up). */
  accountsCaughtUp(): Promise<void>;
  stop(): void;
}

/**
 * Creates the streams if missing, brings this host's copies up to date with them (metering.db and the
 * `shards`' files), and follows them from then on.
 */
export async function startReplication(
  nc: NatsConnection,
  db: Db,
  shardDbs: readonly Db[],
  shards: readonly number[],
  settings: ReplicationSettings,
  log: Log,
): Promise<Replication> {
  if (shardDbs.length !== SHARD_COUNT || shardDbs.some((s) => s === db)) throw new Error('replication needs the shards in their own files');
  const jsm = await nc.jetstreamManager({ timeout: JETSTREAM_API_TIMEOUT_MS });
  const accounts = new Replica(nc, jsm, new ChangeCapture(db, REPLICATED_TABLES.accounts, ACCOUNTS_STREAM.name), ACCOUNTS_STREAM, log);
  const replicas = new Map(
    shards.map((s) => {
      const spec = shardStream(s);
      return [s, new Replica(nc, jsm, new ChangeCapture(shardDbs[s], REPLICATED_TABLES.shard, spec.name), spec, log)] as const;
    }),
  );
  const all = [accounts, ...replicas.values()];
  // Each stream's creation is a round of its own replicas' election: all at once, not one after another.
  await Promise.all(all.map((replica) => replica.ensureStream(settings.replicas)));
  await Promise.all(all.map((replica) => replica.catchUp()));
  for (const replica of all) replica.follow();
  let catchingUp: Promise<void> | undefined;
  return {
    accounts,
    shards: replicas,
    async holdLeases(events) {
      const kv = await openLeaseBucket(nc, settings.replicas, settings.leaseTtlMs);
      return holdShardLeases(kv, shards, settings.holder, settings.leaseTtlMs, events, log);
    },
    accountsCaughtUp() {
      catchingUp ??= accounts.catchUp().finally(() => (catchingUp = undefined));
      return catchingUp;
    },
    stop() {
      for (const replica of all) replica.close();
    },
  };
}
