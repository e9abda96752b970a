// The worker's allowance: which of a key's requests are admitted here and with what count, from the units this
// worker holds itself (a key at volume here) or from the units its host holds for every worker (HostLedger).
// Synchronous, no NATS: it decides, takes grants and drains units; what must go back to metering it hands to
// `giveBack`, and what it must ask for it says in its decision (docs/metering.md).
import { InvalidApiKeyError } from '../../shared/domain-errors.ts';
import { utcDay } from '../../shared/metering-protocol/day.ts';
import type { LeaseReply } from '../../shared/metering-protocol/protocol.ts';
import { countUnits, type Range } from '../../shared/metering-protocol/ranges.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import { admission, quotaExceeded } from './admission.ts';
import { EndpointLease } from './endpoint-lease.ts';
import type { HostLedger, HostTake } from './host-ledger.ts';
import { KeyCache, type KeyEntry } from './key-cache.ts';
import type { Admission } from './meter.ts';

/** After the service says a key's day is used up, refuse locally this long before asking again. */
export const EXHAUSTED_RECHECK_MS = 1000;
/**
 * A holder asks for its next block when the one it holds is down to this share of its size, so that under
 * steady traffic admissions never wait for the metering service (otherwise every request of the key waits for
 * one round trip per block; test/metering/concurrency.test.ts). At a quarter, a worker serving one key at 30k
 * requests/s would have about 8 ms of a 1,000-unit block left when it asks, less than the metering service's
 * answer sometimes takes with both cores busy. Half gives twice the time; a holder that dies strands at most
 * one and a half blocks instead of one and a quarter.
 */
export const REFILL_AT_SHARE = 0.5;
/**
 * A refill ahead asks for about this long of the worker's own traffic for a key and endpoint (its rate since
 * the last grant), so that half of it, when the refill goes out, covers a slow answer from the metering
 * service. At 30k requests/s a 1,000-unit block lasts 33 ms, and an answer held up by a slow WAL fsync in the
 * service would keep every connection of the worker waiting, which wrk's p99 counts many times over. The
 * service caps such a block at MAX_RATE_BLOCK_UNITS.
 */
export const LEASE_HORIZON_MS = 500;
/**
 * Only a worker's own blocks at least this large are refilled ahead: they go to team and institution keys at
 * volume. Small blocks (a free key's day is 1,000 requests; any key near its limit) are drained first: a second
 * block held ahead would keep units from the other holders and widen the X-RateLimit bound (docs/metering.md).
 */
export const REFILL_MIN_BLOCK = 500;
/**
 * A worker at volume asks for its next block ahead, even with units left, once the count it reports rests on a
 * grant this old: the headers then lag the slot's count by at most about this long (docs/metering.md).
 */
export const COUNT_REFRESH_MS = 1000;
/** While one worker asks for the host's next block, the others do not ask too, for at most this long. */
export const HOST_ASK_MS = 1000;

/** Who holds units: this worker (a key at volume here), or the host (every worker of it, through the ledger). */
export type Holder = 'worker' | 'host';

/** A request for units that the meter sends: now (an admission waits) or ahead (in the background). */
export interface Ask {
  holder: Holder;
  day: string;
  /** Units the worker's rate takes over LEASE_HORIZON_MS (0: no rate known). */
  ahead: number;
}

export type Decision =
  | { kind: 'admitted'; admission: Admission; ahead?: Ask }
  | { kind: 'refused'; error: Error }
  /** Nothing held: ask metering for units, then decide again. */
  | { kind: 'ask'; holder: Holder };

/** decideHeld's answer when a unit of the host's must be taken, for the slot of `day`. */
export interface TakeShared {
  kind: 'take';
  day: string;
}

/** Units going back to metering, and the lease they may return to if nobody heard them (a quiet return). */
export interface Return {
  holder: Holder;
  keyHash: string;
  keyId: string;
  endpoint: MeteredEndpoint;
  day: string;
  ranges: Range[];
  /** Everything the holder had left of the slot. */
  drained: boolean;
  keepIn?: EndpointLease;
}

export class Allowance {
  readonly keys = new KeyCache();
  /** The last day whose past days' host slots were swept. */
  #sweptDay = '';

  constructor(
    readonly host: HostLedger,
    private readonly giveBack: (r: Return) => void,
  ) {}

  /** Admits, refuses, or says whom to ask; `turn` is the event-loop turn (two admissions in one: at volume). */
  decide(hash: string, endpoint: MeteredEndpoint, now: number, turn: number): Decision {
    const held = this.decideHeld(hash, endpoint, now, turn);
    if (held.kind !== 'take') return held;
    return this.decideTaken(hash, endpoint, held.day, now, turn, this.host.take(hash, endpoint, held.day, now, REFILL_AT_SHARE, HOST_ASK_MS));
  }

  /**
   * What can be decided without writing: from the worker's own block (memory), or a refusal; else `take`: a
   * unit of the host's must be taken (a write transaction, which the caller may share with other admissions),
   * and decideTaken decides with it.
   */
  decideHeld(hash: string, endpoint: MeteredEndpoint, now: number, turn: number): Decision | TakeShared {
    if (this.keys.isRefused(hash, now)) return { kind: 'refused', error: new InvalidApiKeyError('API key refused') };
    const entry = this.entry(hash);
    if (entry === undefined) return { kind: 'ask', holder: 'host' };
    const { info } = entry;
    if (info.expiresAt !== null && info.expiresAt <= now) {
      this.forget(hash);
      return { kind: 'refused', error: new InvalidApiKeyError('API key expired') };
    }
    const day = utcDay(now);
    const lease = this.leaseFor(entry, endpoint, day, now);
    const own = lease.take(now, turn);
    if (own === undefined) return { kind: 'take', day };
    const refresh = lease.atVolume(now) && (lease.wantsRefill(now) || lease.countIsStale(now, COUNT_REFRESH_MS));
    return { kind: 'admitted', admission: admission(info, lease.used(), own), ahead: refresh ? this.#workerAsk(lease, day, now) : undefined };
  }

  /** The decision once the host's ledger was asked for a unit of the slot of `day` (`shared`, taken at decideHeld's `turn`). */
  decideTaken(hash: string, endpoint: MeteredEndpoint, day: string, now: number, turn: number, shared: HostTake): Decision {
    const entry = this.entry(hash);
    // Forgotten since (a keys-changed broadcast drains the host's units with the key's info): ask metering.
    if (entry === undefined) return { kind: 'ask', holder: 'host' };
    const { info } = entry;
    // decideHeld made the slot's lease for `day`; one of the next day, made meanwhile, is left alone.
    const found = entry.leases.get(endpoint);
    const lease = found !== undefined && found.day === day ? found : undefined;
    const atVolume = lease !== undefined && lease.atVolume(now);
    if (shared.unit !== undefined) {
      lease?.noteUse(now, turn);
      // The host is running low: it asks for its next block, unless the key is at volume here, when this worker
      // asks for a block of its own instead of taking the host's units one transaction at a time.
      const ahead = !shared.askAhead ? undefined : lease !== undefined && lease.atVolume(now) ? this.#workerAsk(lease, day, now) : { holder: 'host' as const, day, ahead: 0 };
      // At volume this worker's own count is refreshed every COUNT_REFRESH_MS, while the host's dates from the
      // host's last grant, which may be older: report the fresher (both are within the bound, docs/metering.md).
      const used = atVolume ? Math.max(shared.used, lease.used()) : shared.used;
      return { kind: 'admitted', admission: admission(info, used, shared.unit), ahead };
    }
    if (shared.exhaustedUntil > now) return { kind: 'refused', error: quotaExceeded(info, endpoint, shared.exhaustedUsed, now) };
    if (lease !== undefined && lease.exhaustedUntil > now) return { kind: 'refused', error: quotaExceeded(info, endpoint, lease.exhaustedUsed, now) };
    return { kind: 'ask', holder: atVolume ? 'worker' : 'host' };
  }

  /** Whether two requests of the slot met in this worker lately (an admission waiting for metering counts). */
  atVolume(hash: string, endpoint: MeteredEndpoint, now: number): boolean {
    const lease = this.keys.get(hash)?.leases.get(endpoint);
    return lease !== undefined && lease.day === utcDay(now) && lease.atVolume(now);
  }

  /**
   * Applies metering's answer to the request `requestId` for units (before any admission waiting for it
   * decides again).
   */
  apply(hash: string, endpoint: MeteredEndpoint, holder: Holder, reply: LeaseReply, now: number, requestId: string): void {
    if (reply.status === 'invalid') {
      this.forget(hash);
      this.keys.refuse(hash, now);
      return;
    }
    const entry = this.keys.upsert(hash, reply.key);
    if (holder === 'host') {
      if (reply.status === 'granted') this.host.grant(hash, endpoint, reply.day, reply.key, { requestId, ranges: reply.ranges, others: reply.used - reply.held });
      else this.host.exhausted(hash, endpoint, reply.day, reply.key, reply.used, now + EXHAUSTED_RECHECK_MS);
      return;
    }
    const lease = this.leaseFor(entry, endpoint, reply.day, now);
    if (reply.status === 'granted') {
      lease.grant(reply.ranges, reply.used, now);
      const granted = countUnits(reply.ranges);
      lease.refillBelow = granted >= REFILL_MIN_BLOCK ? Math.ceil(granted * REFILL_AT_SHARE) : 0;
    } else {
      lease.exhaustedUntil = now + EXHAUSTED_RECHECK_MS;
      lease.exhaustedUsed = reply.used;
    }
  }

  /** The units a holder has unused for a slot, sent with each request for more (metering's count of leased units). */
  holding(hash: string, endpoint: MeteredEndpoint, holder: Holder, day: string): Range[] {
    if (holder === 'host') return this.host.holding(hash, endpoint, day);
    const lease = this.keys.get(hash)?.leases.get(endpoint);
    return lease !== undefined && lease.day === day ? lease.peek() : [];
  }

  /** Metering reclaims a holder's unused units of a slot for another holder: they leave here for good. */
  reclaim(holder: Holder, keyId: string, endpoint: MeteredEndpoint, day: string): Range[] {
    if (holder === 'host') {
      const hash = this.host.hashOf(keyId);
      return hash === undefined ? [] : this.host.drain(hash, endpoint, day);
    }
    const lease = this.keys.byKeyId(keyId)?.leases.get(endpoint);
    return lease !== undefined && lease.day === day ? lease.drain() : [];
  }

  /** Forgets a key here and on the host (revoked, suspended, plan or expiry changed) and hands its units back. */
  forget(hash: string): void {
    const entry = this.keys.forget(hash);
    if (entry) for (const [endpoint, lease] of entry.leases) this.giveBackLease(entry, endpoint, lease, false);
    for (const d of this.host.forget(hash)) this.giveBack({ holder: 'host', ...d, drained: true });
  }

  /** Forgets every key (broadcasts may have been missed while NATS was away): here and on the host. */
  forgetAll(): void {
    for (const hash of [...this.keys.usable.keys()]) this.forget(hash);
    for (const d of this.host.clear()) this.giveBack({ holder: 'host', ...d, drained: true });
  }

  /** The host's units of past days go back once per day (any worker may do it: a drain is atomic). */
  sweepHostDays(now: number): void {
    const today = utcDay(now);
    if (today === this.#sweptDay) return;
    this.#sweptDay = today;
    for (const d of this.host.sweepDays(today)) this.giveBack({ holder: 'host', ...d, drained: true });
  }

  /**
   * Hands back a worker lease's unused units. `quiet`: the key is no longer at volume here, and units nobody
   * heard (no responders) may go back into the lease.
   */
  giveBackLease(entry: KeyEntry, endpoint: MeteredEndpoint, lease: EndpointLease, quiet: boolean): void {
    const ranges = lease.drain();
    // Nothing left, but the service may still count the last block as leased: say that it was all used.
    const drainedByUse = lease.takeUnreported();
    if (ranges.length === 0 && !drainedByUse) return;
    const slot = { keyHash: entry.hash, keyId: entry.info.id, endpoint, day: lease.day };
    this.giveBack({ holder: 'worker', ...slot, ranges, drained: true, keepIn: quiet ? lease : undefined });
  }

  /** The process's entry of a key, from the host's record when another worker learned it first. */
  private entry(hash: string): KeyEntry | undefined {
    const known = this.keys.get(hash);
    if (known !== undefined) return known;
    const info = this.host.info(hash);
    return info === undefined ? undefined : this.keys.upsert(hash, info);
  }

  /** The worker's lease of a slot for `day`, a fresh one if the held one is of another day (whose units go back). */
  private leaseFor(entry: KeyEntry, endpoint: MeteredEndpoint, day: string, now: number): EndpointLease {
    let lease = entry.leases.get(endpoint);
    if (!lease || lease.day !== day) {
      if (lease) this.giveBackLease(entry, endpoint, lease, false);
      lease = new EndpointLease(day, now);
      entry.leases.set(endpoint, lease);
    }
    return lease;
  }

  #workerAsk(lease: EndpointLease, day: string, now: number): Ask {
    return { holder: 'worker', day, ahead: lease.unitsFor(LEASE_HORIZON_MS, now) };
  }
}
