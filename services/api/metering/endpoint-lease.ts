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

  constructor(
    readonly day: string,
    now: number,
  ) {
    this.lastUsedAt = now;
  }

  /** Next number of the block, or undefined when nothing is held. */
  take(now: number): number | undefined {
    const head = this.ranges[0];
    if (head === undefined) return undefined;
    const n = head[0];
    if (n === head[1]) this.ranges.shift();
    else head[0] = n + 1;
    this.lastUsedAt = now;
    return n;
  }

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
