// A bounded sliding window per client address: whether an address made `limit` attempts within the last
// `windowMs`, from the times of its last `limit` attempts only (a ring per address), so that a decision costs
// the same whether the address sent six requests or six million. The addresses kept are bounded too (an Lru):
// a stream of new addresses evicts the quiet ones, never grows the map.
import { Lru } from './lru.ts';

interface Ring {
  /** The times (ms) of the address's last `limit` attempts; -Infinity where fewer were made. */
  times: Float64Array;
  /** The slot of the oldest attempt, overwritten by the next one. */
  next: number;
}

export class AddressWindow {
  readonly #rings: Lru<Ring>;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    capacity: number,
  ) {
    this.#rings = new Lru(capacity);
  }

  /** Whether `address` already made `limit` attempts in the window ending at `now` (so one more is too many). */
  full(address: string, now: number): boolean {
    const ring = this.#rings.get(address);
    return ring !== undefined && ring.times[ring.next] > now - this.windowMs;
  }

  /** Counts one attempt of `address` at `now`, refused or not. */
  record(address: string, now: number): void {
    let ring = this.#rings.get(address);
    if (ring === undefined) {
      ring = { times: new Float64Array(this.limit).fill(-Infinity), next: 0 };
      this.#rings.set(address, ring);
    }
    ring.times[ring.next] = now;
    ring.next = (ring.next + 1) % this.limit;
  }

  /** Counts one attempt and says whether it is within the limit (`full` before it, then `record`). */
  attempt(address: string, now: number): boolean {
    const allowed = !this.full(address, now);
    this.record(address, now);
    return allowed;
  }

  /** Addresses kept now (for tests and metrics). */
  get size(): number {
    return this.#rings.size;
  }
}
