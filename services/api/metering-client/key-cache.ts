// What a worker knows about keys: usable keys with their leases (by key hash) and a short-lived negative
// cache of refused hashes. Emptied per key by the keys-changed broadcast.
import type { KeyInfo } from '../../shared/metering-protocol/protocol.ts';
import { Lru } from '../../shared/lru.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { EndpointLease } from './endpoint-lease.ts';

/** Refused hashes are remembered this long, so that a client repeating a bad key costs no round trip. */
export const NEGATIVE_CACHE_MS = 2000;
/** Bound on the negative cache: random keys must not grow the worker's memory without limit. */
export const NEGATIVE_CACHE_MAX = 10_000;

export interface KeyEntry {
  hash: string;
  info: KeyInfo;
  leases: Map<MeteredEndpoint, EndpointLease>;
}

export class KeyCache {
  readonly usable = new Map<string, KeyEntry>();
  private readonly byId = new Map<string, string>();
  /** Refused hashes and until when; a stream of random keys evicts the oldest, never the whole cache. */
  private readonly refused = new Lru<number>(NEGATIVE_CACHE_MAX);

  get(hash: string): KeyEntry | undefined {
    return this.usable.get(hash);
  }

  byKeyId(id: string): KeyEntry | undefined {
    const hash = this.byId.get(id);
    return hash === undefined ? undefined : this.usable.get(hash);
  }

  isRefused(hash: string, now: number): boolean {
    const until = this.refused.get(hash);
    return until !== undefined && until > now;
  }

  refuse(hash: string, now: number): void {
    this.refused.set(hash, now + NEGATIVE_CACHE_MS);
  }

  /** Creates or refreshes the entry with the service's latest view of the key. */
  upsert(hash: string, info: KeyInfo): KeyEntry {
    let entry = this.usable.get(hash);
    if (entry) entry.info = info;
    else {
      entry = { hash, info, leases: new Map() };
      this.usable.set(hash, entry);
    }
    this.byId.set(info.id, hash);
    return entry;
  }

  /** Drops everything known about `hash` and returns the entry (its leases still hold units to return). */
  forget(hash: string): KeyEntry | undefined {
    // An expired mark: the Lru keeps the slot until eviction passes over it.
    if (this.refused.get(hash) !== undefined) this.refused.set(hash, 0);
    const entry = this.usable.get(hash);
    if (entry) {
      this.usable.delete(hash);
      this.byId.delete(entry.info.id);
    }
    return entry;
  }
}
