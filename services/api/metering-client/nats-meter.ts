// The worker's Meter over NATS: a key at volume here is admitted from blocks of numbered units leased by the
// metering service, with no round trip while a block lasts; any other request is counted by the service itself,
// one round trip, so that its X-RateLimit-Used is the exact count (docs/metering.md).
import { randomBytes } from 'node:crypto';

import { connect, Events, type NatsConnection, type Subscription } from 'nats';

import { InvalidApiKeyError, MeteringUnavailableError } from '../../shared/domain-errors.ts';
import { call, encodeJson, tryDecodeJson } from '../../shared/metering-protocol/client.ts';
import { utcDay } from '../../shared/metering-protocol/day.ts';
import { hashApiKey, isWellFormedKey } from '../../shared/metering-protocol/keys.ts';
import { keysChangedEvent, reclaimRequest, RPC, type AdmitReply, type LeaseReply } from '../../shared/metering-protocol/protocol.ts';
import { countUnits, type Range } from '../../shared/metering-protocol/ranges.ts';
import { KEYS_CHANGED_SUBJECT, reclaimSubject } from '../../shared/metering-protocol/subjects.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { WorkerStats } from '../metrics/worker-stats.ts';
import { admission, quotaExceeded } from './admission.ts';
import { EndpointLease } from './endpoint-lease.ts';
import { KeyCache, type KeyEntry } from './key-cache.ts';
import { LeaseRequests, type Counted } from './lease-requests.ts';
import type { Admission, Meter, MeteringHealth, Registration, RegistrationInput } from './meter.ts';
import { register } from './register.ts';
import { returnUnits, returnUnitsRetrying } from './returns.ts';
import { LeaseSweeper } from './sweeper.ts';

/** After the service says a key's day is used up, refuse locally this long before asking again. */
export const EXHAUSTED_RECHECK_MS = 1000;
/**
 * Longest an admission waits for the metering service, over all its lease requests (a reply discarded after
 * a reconnect makes a second one): past it the request fails closed, fast, as internal_error.
 */
export const ADMISSION_DEADLINE_MS = 1000;
/**
 * A worker asks for its next block when the one it holds is down to this share of its size, so that under
 * steady traffic admissions never wait for the metering service (otherwise every request of the key in that
 * worker waits for one round trip per block; test/metering/concurrency.test.ts). At a quarter, a worker
 * serving one key at 30k requests/s would have about 8 ms of a 1,000-unit block left when it asks, less than
 * the metering service's answer sometimes takes with both cores busy. Half gives twice the time; a worker
 * that dies strands at most one and a half blocks instead of one and a quarter.
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
 * Only blocks at least this large are refilled ahead: they go to team and institution keys at volume. Small
 * blocks (a free key's day is 1,000 requests; any key near its limit) are drained first: a second block held
 * ahead would keep units from the other workers and widen the X-RateLimit bound (docs/metering.md).
 */
export const REFILL_MIN_BLOCK = 500;
/**
 * A worker at volume asks for its next block ahead, even with units left, once the count it reports rests on a
 * grant this old: the headers then lag the slot's count by at most about this long (docs/metering.md).
 */
export const COUNT_REFRESH_MS = 1000;
/** Keys whose hash a worker remembers. */
export const HASH_CACHE_SIZE = 10_000;
/** Reconnect quickly after a NATS restart and never give up: the worker recovers by itself. */
export const RECONNECT_TIME_WAIT_MS = 250;

export interface ConnectMeterOptions {
  natsUrl: string;
  workerName: string;
  /** Injected clock (ms since epoch); defaults to Date.now. */
  now?: () => number;
  /** Lease requests' outcomes and round trips, for the metrics. */
  stats?: Pick<WorkerStats, 'lease'>;
}

export async function connectMeter(options: ConnectMeterOptions): Promise<Meter> {
  const nc = await connect({
    servers: options.natsUrl,
    name: options.workerName,
    maxReconnectAttempts: -1,
    reconnectTimeWait: RECONNECT_TIME_WAIT_MS,
  });
  return new NatsMeter(nc, options.workerName, options.now ?? Date.now, options.stats);
}

/** What the local check concluded: admitted, refused, or a lease request is needed first. */
type Local = Admission | Error | undefined;

export class NatsMeter implements Meter {
  /** This connection's lease-holder id: the service records grants under it and reclaims through it. */
  readonly holder = randomBytes(8).toString('hex');
  readonly cache = new KeyCache();
  private readonly leases: LeaseRequests;
  private readonly subs: Subscription[];
  private readonly sweeper: LeaseSweeper;
  private connected = true;
  /**
   * Bumped by every keys-changed broadcast and reconnect, so that a lease reply that raced with one is not
   * trusted. Not by refusals of unknown keys: a flood of bad keys must not discard good keys' grants.
   */
  private epoch = 0;
  private closing: Promise<void> | undefined;
  /**
   * SHA-256 of recently seen keys: hashing every request's key would be a large share of a lookup's cost in
   * the worker. Bounded, and cleared whole when full; only well-formed keys enter it.
   */
  private readonly hashes = new Map<string, string>();
  /** Event-loop turns, counted while admissions happen: two units of a slot taken in one turn mean volume. */
  private turn = 0;
  private turnEnding = false;
  private readonly endTurn = (): void => {
    this.turn++;
    this.turnEnding = false;
  };

  constructor(
    private readonly nc: NatsConnection,
    private readonly workerName: string,
    private readonly now: () => number,
    stats?: Pick<WorkerStats, 'lease'>,
  ) {
    this.subs = [
      nc.subscribe(KEYS_CHANGED_SUBJECT, { callback: (err, msg) => !err && this.onKeysChanged(msg.data) }),
      nc.subscribe(reclaimSubject(this.holder), {
        callback: (err, msg) => {
          // One turn later: a grant that arrived in the same read has then been applied and handed out.
          if (!err) setImmediate(() => msg.respond(encodeJson({ ranges: this.onReclaim(msg.data) })));
        },
      }),
    ];
    this.sweeper = new LeaseSweeper(this.cache, now, (entry, endpoint, lease, why) =>
      this.giveBack(entry, endpoint, lease, why === 'quiet'),
    );
    this.leases = new LeaseRequests({
      nc,
      holder: this.holder,
      workerName,
      connected: () => this.connected,
      epoch: () => this.epoch,
      stats,
      holding: (hash, endpoint) => this.cache.get(hash)?.leases.get(endpoint)?.peek() ?? [],
    });
    void this.watchStatus();
  }

  admit(apiKey: string, endpoint: MeteredEndpoint): Promise<Admission> {
    // Malformed keys are refused without any lookup.
    if (!isWellFormedKey(apiKey)) return Promise.reject(new InvalidApiKeyError('malformed API key'));
    const hash = this.hashOf(apiKey);
    // The hot path: a unit of a held block, decided here with no await and no round trip.
    const local = this.decide(hash, endpoint);
    if (local === undefined) return this.admitSlowly(hash, endpoint);
    return local instanceof Error ? Promise.reject(local) : Promise.resolve(local);
  }

  admitNow(apiKey: string, endpoint: MeteredEndpoint): Admission | undefined {
    if (!isWellFormedKey(apiKey)) throw new InvalidApiKeyError('malformed API key');
    const local = this.decide(this.hashOf(apiKey), endpoint);
    if (local instanceof Error) throw local;
    return local;
  }

  private hashOf(apiKey: string): string {
    let hash = this.hashes.get(apiKey);
    if (hash === undefined) {
      if (this.hashes.size >= HASH_CACHE_SIZE) this.hashes.clear();
      hash = hashApiKey(apiKey);
      this.hashes.set(apiKey, hash);
    }
    return hash;
  }

  private async admitSlowly(hash: string, endpoint: MeteredEndpoint): Promise<Admission> {
    const deadline = performance.now() + ADMISSION_DEADLINE_MS;
    for (;;) {
      const left = deadline - performance.now();
      if (left <= 0) throw new MeteringUnavailableError('no allowance within the admission deadline');
      // The request goes on after the deadline: a grant is still applied and serves later requests (a request
      // counted by the service after it stays counted: never served free, at worst one unit over).
      // A lease is sized for the waiting admissions only: a rate-sized block goes only to refills ahead.
      const now = this.now();
      const lease = this.cache.get(hash)?.leases.get(endpoint);
      const atVolume = lease !== undefined && lease.day === utcDay(now) && lease.atVolume(now);
      const pending = this.leases.acquire(hash, endpoint, utcDay(now), atVolume, (reply, epoch) =>
        this.applyLease(hash, endpoint, reply, epoch),
      );
      const counted = await withDeadline(pending, left);
      if (counted !== undefined) return this.applyCounted(hash, endpoint, counted);
      const local = this.decide(hash, endpoint);
      if (local instanceof Error) throw local;
      if (local !== undefined) return local;
    }
  }

  private decide(hash: string, endpoint: MeteredEndpoint): Local {
    const now = this.now();
    if (this.cache.isRefused(hash, now)) return new InvalidApiKeyError('API key refused');
    const entry = this.cache.get(hash);
    if (!entry) return undefined;
    const { info } = entry;
    if (info.expiresAt !== null && info.expiresAt <= now) {
      this.forget(hash);
      return new InvalidApiKeyError('API key expired');
    }
    const lease = entry.leases.get(endpoint);
    if (!lease || lease.day !== utcDay(now)) return undefined;
    const n = lease.take(now, this.currentTurn());
    if (n !== undefined) {
      if (lease.atVolume(now) && (lease.wantsRefill(now) || lease.countIsStale(now, COUNT_REFRESH_MS))) {
        this.refillAhead(hash, endpoint, lease, now);
      }
      return admission(info, lease.used(), n);
    }
    return lease.exhaustedUntil > now ? quotaExceeded(info, endpoint, lease.exhaustedUsed, now) : undefined;
  }

  /** The current event-loop turn; the next one starts once this turn's callbacks have run. */
  private currentTurn(): number {
    if (!this.turnEnding) {
      this.turnEnding = true;
      setImmediate(this.endTurn);
    }
    return this.turn;
  }

  /** Asks for the next block in the background while units are still held (one request at a time). */
  private refillAhead(hash: string, endpoint: MeteredEndpoint, lease: EndpointLease, now: number): void {
    if (this.leases.inFlight(hash, endpoint)) return;
    this.leases
      .refill(hash, endpoint, lease.day, lease.unitsFor(LEASE_HORIZON_MS, now), (reply, epoch) =>
        this.applyLease(hash, endpoint, reply, epoch),
      )
      // Nothing waits on it: if it fails, the admission that finds the block empty asks again and reports.
      .catch(() => undefined);
  }

  /** The service counted this admission itself: its answer, and the key cached for the next request. */
  private applyCounted(hash: string, endpoint: MeteredEndpoint, { reply, sentAtEpoch }: Counted): Admission {
    const now = this.now();
    if (reply.status === 'invalid') {
      this.forget(hash);
      this.cache.refuse(hash, now);
      throw new InvalidApiKeyError('API key refused');
    }
    // A keys-changed broadcast raced with the request: the service decided in its turn, before or after the
    // change, so its answer stands; only the key is not cached (the next request asks again).
    if (this.epoch === sentAtEpoch) {
      const lease = this.leaseFor(this.cache.upsert(hash, reply.key), endpoint, reply.day, now);
      lease.lastUsedAt = now;
      // The request said what this worker held: the service no longer counts anything as leased here.
      lease.takeUnreported();
      if (reply.status === 'exhausted') {
        lease.exhaustedUntil = now + EXHAUSTED_RECHECK_MS;
        lease.exhaustedUsed = reply.used;
      }
    }
    return this.counted(reply, endpoint, now);
  }

  private counted(reply: Exclude<AdmitReply, { status: 'invalid' }>, endpoint: MeteredEndpoint, now: number): Admission {
    if (reply.status === 'exhausted') throw quotaExceeded(reply.key, endpoint, reply.used, now);
    return admission(reply.key, reply.used, reply.unit);
  }

  /** The lease of a slot for `day`, a fresh one if the held one is of another day (whose units go back). */
  private leaseFor(entry: KeyEntry, endpoint: MeteredEndpoint, day: string, now: number): EndpointLease {
    let lease = entry.leases.get(endpoint);
    if (!lease || lease.day !== day) {
      if (lease) this.giveBack(entry, endpoint, lease, false);
      lease = new EndpointLease(day, now);
      entry.leases.set(endpoint, lease);
    }
    return lease;
  }

  /** Applies a lease reply to the cache (runs before the admissions waiting for it resume). */
  private applyLease(hash: string, endpoint: MeteredEndpoint, reply: LeaseReply, sentAtEpoch: number): void {
    const now = this.now();
    if (reply.status === 'invalid') {
      this.forget(hash);
      this.cache.refuse(hash, now);
      return;
    }
    if (this.epoch !== sentAtEpoch) {
      // A keys-changed broadcast arrived while this request was out: the key may now be revoked. Give the
      // units back and let the waiters ask again, so that the service checks the key again.
      if (reply.status === 'granted') {
        void returnUnitsRetrying(this.nc, this.holder, { keyId: reply.key.id, endpoint, day: reply.day }, reply.ranges, false);
      }
      return;
    }
    const lease = this.leaseFor(this.cache.upsert(hash, reply.key), endpoint, reply.day, now);
    if (reply.status === 'granted') {
      lease.grant(reply.ranges, reply.used, now);
      const granted = countUnits(reply.ranges);
      lease.refillBelow = granted >= REFILL_MIN_BLOCK ? Math.ceil(granted * REFILL_AT_SHARE) : 0;
    } else {
      lease.exhaustedUntil = now + EXHAUSTED_RECHECK_MS;
      lease.exhaustedUsed = reply.used;
    }
  }

  /** A key changed at the service (revoked, suspended, reinstated, plan, expiry): forget it everywhere. */
  private invalidate(hash: string): void {
    this.epoch++;
    this.forget(hash);
  }

  /** Forgets a key and returns its unused units. */
  private forget(hash: string): void {
    const entry = this.cache.forget(hash);
    if (entry) for (const [endpoint, lease] of entry.leases) this.giveBack(entry, endpoint, lease, false);
  }

  private onKeysChanged(data: Uint8Array): void {
    const parsed = keysChangedEvent.safeParse(tryDecodeJson(data));
    if (parsed.success) for (const hash of parsed.data.keyHashes) this.invalidate(hash);
  }

  /** The service asks for this holder's unused units of one slot (another worker needs them). */
  private onReclaim(data: Uint8Array): Range[] {
    const parsed = reclaimRequest.safeParse(tryDecodeJson(data));
    if (!parsed.success) return [];
    const lease = this.cache.byKeyId(parsed.data.keyId)?.leases.get(parsed.data.endpoint);
    return lease && lease.day === parsed.data.day ? lease.drain() : [];
  }

  /**
   * Returns a lease's unused units. Once sent they are never used here again, whatever the outcome; only
   * when NATS says nobody listens (so nobody got them) do idle units go back into the lease.
   */
  private giveBack(entry: KeyEntry, endpoint: MeteredEndpoint, lease: EndpointLease, keepIfUnheard: boolean): void {
    // While NATS is down a return could only time out (and the units be lost): keep serving from them.
    if (keepIfUnheard && !this.connected) return;
    const ranges = lease.drain();
    // Nothing left, but the service may still count the last block as leased: say that it was all used.
    const drainedByUse = lease.takeUnreported();
    if (ranges.length === 0 && !drainedByUse) return;
    const slot = { keyId: entry.info.id, endpoint, day: lease.day };
    // Units that must go back are retried until the service answers, so that a reconnect (which forgets
    // every key) or a metering restart does not strand them as counted-but-never-served.
    if (!keepIfUnheard) {
      void returnUnitsRetrying(this.nc, this.holder, slot, ranges, true);
      return;
    }
    void returnUnits(this.nc, this.holder, slot, ranges, true).then((delivered) => {
      if (!delivered && keepIfUnheard && this.cache.get(entry.hash)?.leases.get(endpoint) === lease) {
        lease.add(ranges, lease.lastUsedAt);
      }
    });
  }

  cachedKeys(): number {
    return this.cache.usable.size;
  }

  register(input: RegistrationInput, clientIp: string): Promise<Registration> {
    return register(this.nc, input, clientIp);
  }

  async health(): Promise<MeteringHealth> {
    return call(this.nc, RPC.ping, {}).then(
      ({ storage }): MeteringHealth =>
        storage === undefined || storage.canCommit
          ? { reachable: true, canCommit: true }
          : { reachable: true, canCommit: false, storageError: storage.error ?? 'unknown' },
      (): MeteringHealth => ({ reachable: false, canCommit: false }),
    );
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.sweeper.stop();
    if (!this.connected) {
      // Returns could only time out; the held units stay counted (bounded by the block sizes).
      await this.nc.close();
      return;
    }
    const returns: Promise<boolean>[] = [];
    for (const entry of this.cache.usable.values()) {
      for (const [endpoint, lease] of entry.leases) {
        const ranges = lease.drain();
        if (ranges.length === 0 && !lease.takeUnreported()) continue;
        returns.push(returnUnits(this.nc, this.holder, { keyId: entry.info.id, endpoint, day: lease.day }, ranges, true));
      }
    }
    await Promise.allSettled(returns);
    for (const sub of this.subs) sub.unsubscribe();
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => undefined);
  }

  private async watchStatus(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === Events.Disconnect) this.connected = false;
      else if (status.type === Events.Reconnect) {
        this.connected = true;
        // Broadcasts sent while we were away are lost: forget every key and lease afresh.
        for (const hash of [...this.cache.usable.keys()]) this.invalidate(hash);
      }
    }
  }
}


function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new MeteringUnavailableError('metering did not answer in time')), ms);
  });
  promise.catch(() => undefined);
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
