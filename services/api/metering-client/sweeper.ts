// Periodic housekeeping of a worker's leases: the units of a key no longer at volume go back within about a
// second, past days' units at the end of the UTC day, and empty entries are dropped.
import { utcDay } from '../../shared/metering-protocol/day.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { EndpointLease } from './endpoint-lease.ts';
import type { KeyCache, KeyEntry } from './key-cache.ts';

/** An empty lease untouched this long is dropped (it only remembers an exhausted day or the key's volume). */
export const IDLE_RETURN_MS = 1000;
export const SWEEP_INTERVAL_MS = 250;

export type GiveBack = (entry: KeyEntry, endpoint: MeteredEndpoint, lease: EndpointLease, why: 'quiet' | 'day') => void;

export class LeaseSweeper {
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly cache: KeyCache,
    private readonly now: () => number,
    private readonly giveBack: GiveBack,
  ) {
    this.timer = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  sweep(): void {
    const now = this.now();
    const today = utcDay(now);
    for (const entry of this.cache.usable.values()) {
      for (const [endpoint, lease] of entry.leases) {
        if (lease.day !== today) {
          this.giveBack(entry, endpoint, lease, 'day');
          entry.leases.delete(endpoint);
        } else if (lease.held() > 0) {
          // A block is for a key at volume (endpoint-lease.ts): once none of its requests met here for
          // VOLUME_WINDOW_MS, the unused units go back, and the key's next request is counted exactly again.
          if (!lease.atVolume(now)) this.giveBack(entry, endpoint, lease, 'quiet');
        } else if (now - lease.lastUsedAt >= IDLE_RETURN_MS && lease.exhaustedUntil <= now) {
          // Used up: the service may still count the last block as leased until told it was all used.
          this.giveBack(entry, endpoint, lease, 'quiet');
          entry.leases.delete(endpoint);
        }
      }
      if (entry.leases.size === 0) this.cache.forget(entry.hash);
    }
    this.cache.pruneRefused(now);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
