// The units a worker holds for one key, endpoint and UTC day: numbered, handed out lowest first, no I/O.
import { countUnits, normalise, type Range } from '../../shared/metering/ranges.ts';

export class EndpointLease {
  /** Held numbers, sorted and disjoint; the head range's `from` is the next number handed out. */
  private ranges: [number, number][] = [];
  lastUsedAt: number;
  /** The service said the day's allowance is gone; until then refuse without asking again. */
  exhaustedUntil = 0;
  exhaustedUsed = 0;
  /** Ask for the next block once fewer units than this are held (set from each grant; 0 = never ahead). */
  refillBelow = 0;
  /** This worker's rate for the slot: units taken since the last grant arrived. */
  private grantedAt: number;
  private takenSinceGrant = 0;

  constructor(
    readonly day: string,
    now: number,
  ) {
    this.lastUsedAt = now;
    this.grantedAt = now;
  }

  /** Next number of the block, or undefined when nothing is held. */
  take(now: number): number | undefined {
    const head = this.ranges[0];
    if (head === undefined) return undefined;
    const n = head[0];
    if (n === head[1]) this.ranges.shift();
    else head[0] = n + 1;
    this.lastUsedAt = now;
    this.takenSinceGrant++;
    return n;
  }

  /** A grant from the service: its units join the lease, and the rate is measured afresh from here. */
  grant(ranges: readonly Range[], now: number): void {
    this.add(ranges, now);
    this.grantedAt = now;
    this.takenSinceGrant = 0;
  }

  /** Units this worker would take over `horizonMs` at its rate since the last grant (0 before any was taken). */
  unitsFor(horizonMs: number, now: number): number {
    if (this.takenSinceGrant === 0) return 0;
    return Math.ceil((this.takenSinceGrant * horizonMs) / Math.max(1, now - this.grantedAt));
  }

  /** Units join the lease: a grant's (through grant) or ones a return nobody heard put back (the rate goes on). */
  add(ranges: readonly Range[], now: number): void {
    this.ranges = normalise([...this.ranges, ...ranges]).map(([a, b]) => [a, b]);
    this.exhaustedUntil = 0;
    this.lastUsedAt = now;
  }

  /** Removes and returns every held number (they must never be used here again). */
  drain(): Range[] {
    const out = this.ranges;
    this.ranges = [];
    return out;
  }

  held(): number {
    return countUnits(this.ranges);
  }

  /** True when the held units have fallen below the refill mark and the day is not known to be used up. */
  wantsRefill(now: number): boolean {
    return this.refillBelow > 0 && this.exhaustedUntil <= now && this.held() < this.refillBelow;
  }
}
