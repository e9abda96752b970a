// Periodic housekeeping of a worker's own leases: the units of a key no longer at volume go back within about
// a second, past days' units at the end of the UTC day, and empty entries are dropped; the host's units of
// past days go back once the day has turned.
import { MeteringStorageError } from '../../shared/domain-errors.ts';
import { utcDay } from '../../shared/metering-protocol/day.ts';
import type { Allowance } from './allowance.ts';

/** An empty lease untouched this long tells metering its last block was used up. */
export const IDLE_RETURN_MS = 1000;
/**
 * An empty lease untouched this long is dropped, and with the last one the key's entry: a key whose requests
 * come every few seconds (10,000 light keys) would otherwise read its info from the host's ledger again each
 * time. Bounds the worker's memory by the keys used in this window.
 */
export const FORGET_IDLE_MS = 30_000;
export const SWEEP_INTERVAL_MS = 250;

export class LeaseSweeper {
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly allowance: Allowance,
    private readonly now: () => number,
  ) {
    this.timer = setInterval(() => {
      try {
        this.sweep();
      } catch (error) {
        // A full disk under the host's ledger (reported once by it): the next tick tries again.
        if (!(error instanceof MeteringStorageError)) throw error;
      }
    }, SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  sweep(): void {
    const now = this.now();
    const today = utcDay(now);
    const { keys } = this.allowance;
    for (const entry of keys.usable.values()) {
      for (const [endpoint, lease] of entry.leases) {
        if (lease.day !== today) {
          this.allowance.giveBackLease(entry, endpoint, lease, false);
          entry.leases.delete(endpoint);
        } else if (lease.held() > 0) {
          // A worker's own block is for a key at volume (endpoint-lease.ts): once none of its requests met here
          // for VOLUME_WINDOW_MS, the unused units go back, and the key's requests take the host's units again.
          if (!lease.atVolume(now)) this.allowance.giveBackLease(entry, endpoint, lease, true);
        } else if (now - lease.lastUsedAt >= IDLE_RETURN_MS && lease.exhaustedUntil <= now) {
          // Used up: the service may still count the last block as leased until told it was all used.
          this.allowance.giveBackLease(entry, endpoint, lease, true);
          if (now - lease.lastUsedAt >= FORGET_IDLE_MS) entry.leases.delete(endpoint);
        }
      }
      if (entry.leases.size === 0) keys.forget(entry.hash);
    }
    this.allowance.sweepHostDays(now);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
