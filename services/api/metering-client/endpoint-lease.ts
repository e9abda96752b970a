// What a worker knows of one key, endpoint and UTC day: the numbered units it holds itself (handed out lowest
// first), whether the key is at volume here, and the count X-RateLimit-Used reports from them. No I/O.
import { countUnits, normalise, type Range } from '../../shared/metering-protocol/ranges.ts';

/**
 * A key is at volume in a worker for this long after two of its requests to the endpoint met there: in one
 * event-loop turn, or one while another waited for the metering service. Only then does the worker hold a
 * block of its own; a client that sends one request at a time never makes two meet, so each of its requests
 * takes a unit of the host's shared allowance, whose count is exact over every worker of the host.
 */
export const VOLUME_WINDOW_MS = 1000;

export class EndpointLease {
  /** Held numbers, sorted and disjoint; the head range's `from` is the next number handed out. */
  private ranges: [number, number][] = [];
  lastUsedAt: number;
  /** The service said the day's allowance is gone; until then refuse without asking again. */
  exhaustedUntil = 0;
  exhaustedUsed = 0;
  /** Ask for the next block once fewer units than this are held (set from each grant; 0 = never ahead). */
  refillBelow = 0;
  /** This worker's rate for the slot: requests admitted here (from any holder's units) since the last grant arrived. */
  private grantedAt: number;
  private usesSinceGrant = 0;
  /** Units of this lease taken since the last grant arrived. */
  private takenSinceGrant = 0;
  /** Units counted for the slot when the last grant arrived, less those still held here then. */
  private base = 0;
  /** Units of the last grant. */
  private granted = 0;
  private volumeUntil = 0;
  /** The event-loop turn in which the last unit was taken here. */
  private turn = -1;
  /** The service may count units of a grant as leased here that this worker has used since (see ops usage). */
  private unreported = false;

  constructor(
    readonly day: string,
    now: number,
  ) {
    this.lastUsedAt = now;
    this.grantedAt = now;
  }

  /** Next number of the block, or undefined when nothing is held. `turn` names the event-loop turn. */
  take(now: number, turn: number): number | undefined {
    const head = this.ranges[0];
    if (head === undefined) return undefined;
    const n = head[0];
    if (n === head[1]) this.ranges.shift();
    else head[0] = n + 1;
    this.takenSinceGrant++;
    this.noteUse(now, turn);
    return n;
  }

  /**
   * A request of the slot was admitted here in event-loop turn `turn` (from this lease or from the host's
   * units): two in one turn put the key at volume in this worker.
   */
  noteUse(now: number, turn: number): void {
    this.lastUsedAt = now;
    this.usesSinceGrant++;
    if (turn === this.turn) this.volumeUntil = now + VOLUME_WINDOW_MS;
    this.turn = turn;
  }

  /**
   * X-RateLimit-Used of the unit just taken: the count when the last grant arrived plus what this worker took
   * since. Off from the true count by what other workers held unused then, or served since (docs/metering.md).
   */
  used(): number {
    return this.base + this.takenSinceGrant;
  }

  /**
   * A grant from the service: its units join the lease, the rate is measured afresh from here, and `used`
   * (the slot's count with this grant) less the units now held here is the base of the reported count.
   */
  grant(ranges: readonly Range[], used: number, now: number): void {
    this.add(ranges, now);
    this.grantedAt = now;
    this.takenSinceGrant = 0;
    this.usesSinceGrant = 0;
    this.granted = countUnits(ranges);
    this.unreported = true;
    this.base = Math.max(0, used - this.held());
    // Blocks are asked for at volume only.
    this.markVolume(now);
  }

  /** Units this worker would take over `horizonMs` at its rate since the last grant (0 before any was taken). */
  unitsFor(horizonMs: number, now: number): number {
    if (this.usesSinceGrant === 0) return 0;
    return Math.ceil((this.usesSinceGrant * horizonMs) / Math.max(1, now - this.grantedAt));
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

  /** The held numbers, left in place. */
  peek(): Range[] {
    return this.ranges.map(([a, b]) => [a, b]);
  }

  /**
   * True once after a grant, until the service has been told what is left of it (a return, or a request that
   * says what is held): then the service stops counting the used part as leased.
   */
  takeUnreported(): boolean {
    const was = this.unreported;
    this.unreported = false;
    return was;
  }

  atVolume(now: number): boolean {
    return this.volumeUntil > now;
  }

  private markVolume(now: number): void {
    this.volumeUntil = Math.max(this.volumeUntil, now + VOLUME_WINDOW_MS);
  }

  /** True when the held units have fallen below the refill mark and the day is not known to be used up. */
  wantsRefill(now: number): boolean {
    return this.refillBelow > 0 && this.exhaustedUntil <= now && this.held() < this.refillBelow;
  }

  /**
   * True when the reported count rests on a grant older than `maxAgeMs` and no more than that grant's units
   * are held: asking for the next block ahead also brings the count up to date, without hoarding blocks.
   */
  countIsStale(now: number, maxAgeMs: number): boolean {
    return now - this.grantedAt >= maxAgeMs && this.exhaustedUntil <= now && this.held() <= this.granted;
  }
}
