// Which metering process serves a shard, across hosts: a lease in a key-value bucket with 3 replicas whose
// entries expire after the lease's time to live. The holder renews it well within that time; a process that
// cannot renew stops serving the shard before the entry can expire, and a standby creates the entry once it
// has. The lease only decides who serves: two writers can never both append on the same state whatever it
// says (replica.ts), so a lease held twice for a moment costs a refused append, never a unit counted twice.
import type { KV, NatsConnection } from 'nats';

import type { Log } from '../log.ts';
import { JETSTREAM_API_TIMEOUT_MS } from './replica.ts';

/** The bucket of shard leases. */
export const LEASE_BUCKET = 'dict-metering-leases';
/** A lease not renewed for this long lapses, and a standby takes the shard (METERING_LEASE_TTL_MS). */
export const DEFAULT_LEASE_TTL_MS = 2000;

export interface ShardLeaseEvents {
  /** This process now holds the shard's lease: catch up, then serve. Throws: the lease is given back. */
  lead(shard: number): Promise<void>;
  /** The lease lapsed or another process holds it: stop serving the shard at once. */
  lose(shard: number): Promise<void>;
}

export interface ShardLeases {
  /** The shards this process serves now. */
  held(): number[];
  stop(): Promise<void>;
}

/** Times the time to live a holder serves on without reaching the bucket before giving the shard up. */
const UNREACHABLE_TTLS = 10;

const keyOf = (shard: number) => `shard-${String(shard).padStart(2, '0')}`;

export async function openLeaseBucket(nc: NatsConnection, replicas: number, ttlMs: number): Promise<KV> {
  return nc.jetstream({ timeout: JETSTREAM_API_TIMEOUT_MS }).views.kv(LEASE_BUCKET, { replicas, ttl: ttlMs, history: 1 });
}

/**
 * Competes for each of `shards` every quarter of the time to live: a standby tries to create the entry (it
 * exists while another holds it), the holder renews it on the revision it last wrote.
 */
export function holdShardLeases(kv: KV, shards: readonly number[], me: string, ttlMs: number, events: ShardLeaseEvents, log: Log): ShardLeases {
  const state = new Map<number, { revision: number; renewedAt: number }>();
  const tickMs = Math.max(50, Math.floor(ttlMs / 4));
  let stopped = false;
  const busy = new Set<number>();

  const drop = async (shard: number, why: string) => {
    state.delete(shard);
    log.info({ msg: 'shard lease lost: not serving it', shard, why });
    await events.lose(shard);
  };

  const tick = async (shard: number) => {
    const held = state.get(shard);
    if (held !== undefined) {
      try {
        held.revision = await kv.update(keyOf(shard), me, held.revision);
        held.renewedAt = Date.now();
      } catch (error) {
        // Another process holds it now (or it lapsed): stop at once. A bucket that cannot be reached (its Raft
        // leader was on a lost server: 4 to 9 s) is no reason to stop, since every append is fenced anyway
        // and the shard's own stream may be healthy; only a holder cut off for long gives the shard up.
        const wrongRevision = /wrong last sequence/i.test((error as Error).message);
        if (wrongRevision || Date.now() - held.renewedAt > ttlMs * UNREACHABLE_TTLS) await drop(shard, (error as Error).message);
      }
      return;
    }
    let revision: number;
    try {
      revision = await kv.create(keyOf(shard), me);
    } catch {
      return; // held elsewhere, or the bucket cannot be reached
    }
    state.set(shard, { revision, renewedAt: Date.now() });
    try {
      await events.lead(shard);
      log.info({ msg: 'shard lease taken: serving it', shard });
    } catch (error) {
      state.delete(shard);
      await kv.delete(keyOf(shard)).catch(() => undefined);
      log.error({ msg: 'cannot serve a shard whose lease was taken; given back', shard, error: (error as Error).message });
    }
  };

  const timer = setInterval(() => {
    if (stopped) return;
    for (const shard of shards) {
      if (busy.has(shard)) continue;
      busy.add(shard);
      void tick(shard).finally(() => busy.delete(shard));
    }
  }, tickMs);

  return {
    held: () => [...state.keys()],
    async stop() {
      stopped = true;
      clearInterval(timer);
      // Handed over at once rather than left to lapse: a standby takes the shards at its next try.
      for (const shard of [...state.keys()]) {
        state.delete(shard);
        await events.lose(shard);
        await kv.delete(keyOf(shard)).catch(() => undefined);
      }
    },
  };
}
