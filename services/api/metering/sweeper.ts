// Periodic housekeeping of a worker's leases: idle units go back after about a second, past days' units at
// the end of the UTC day, and empty entries are dropped.
import { utcDay } from '../../shared/metering/day.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { EndpointLease } from './endpoint-lease.ts';
import type { KeyCache, KeyEntry } from './key-cache.ts';

/** Unused units of a block untouched this long go back, so another worker can use them. */
export const IDLE_RETURN_MS = 1000;
export const SWEEP_INTERVAL_MS = 250;

export type GiveBack = (entry: KeyEntry, endpoint: MeteredEndpoint, lease: EndpointLease, why: 'idle' | 'day') => void;

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
        } else if (now - lease.lastUsedAt >= IDLE_RETURN_MS) {
          if (lease.held() > 0) this.giveBack(entry, endpoint, lease, 'idle');
          else if (lease.exhaustedUntil <= now) entry.leases.delete(endpoint);
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
