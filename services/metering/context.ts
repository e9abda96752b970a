// The one typed bag the handlers receive, built in service.ts: stores, clock, log and the NATS side effects.
import type { Range } from '../shared/metering-protocol/ranges.ts';
import type { GroupCommit } from './db/group-commit.ts';
import type { Db } from './db/open.ts';
import type { Log } from './log.ts';
import type { StorageHealth } from './storage-health.ts';
import type { Accounts } from './store/accounts.ts';
import type { QuotaStore, Slot } from './store/quota.ts';
import type { Throttle } from './store/throttle.ts';

/** One shard's quota (db/shards.ts), and its group commit: its grants and releases of one turn commit together. */
export interface Shard {
  db: Db;
  quota: QuotaStore;
  commits: GroupCommit;
}

export interface MeteringContext {
  db: Db;
  accounts: Accounts;
  /** Every shard's quota, by shard number (services/shared/metering-protocol/subjects.ts, shardOf). */
  shards: readonly Shard[];
  throttle: Throttle;
  /**
   * metering.db's group commit (registrations and the operator's key changes), apart from the shards' (leases
   * never wait for its fsync). Replicated, it commits once the accounts stream has the changes.
   */
  accountCommits: GroupCommit;
  /** Replicated: brings metering.db up to the accounts stream (a key registered through another host). */
  accountsCaughtUp?: () => Promise<void>;
  now: () => number;
  log: Log;
  /** Whether metering.db takes commits (ping reports it); told of every storage fault. */
  storage: StorageHealth;
  /** Tells every worker to forget what it cached about these keys (revocation, suspension, plan). */
  broadcastKeysChanged(keyHashes: string[], reason: string): void;
  /** Asks one holder for its unused units of a slot; undefined when it does not answer in time. */
  reclaim(holder: string, slot: Slot): Promise<Range[] | undefined>;
  /** Runs `fn` after every earlier call with the same `key` has finished (per-slot serialisation). */
  serialize<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

/** An expected refusal, sent to the caller as a NATS service error (code + description). */
export class ServiceFault extends Error {
  override readonly name = 'ServiceFault';
  constructor(
    readonly kind: 'bad_request' | 'not_found' | 'ambiguous' | 'rate_limited' | 'invalid_registration' | 'busy',
    message: string,
    readonly parameter?: string,
  ) {
    super(message);
  }
}
