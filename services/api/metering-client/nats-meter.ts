// The worker's Meter: the allowance (allowance.ts) decides each admission from units held in this worker or by
// its host; when it holds none, the transport (transport.ts) asks the metering service over NATS and the
// admission decides again (docs/metering.md).
import { InvalidApiKeyError, MeteringStorageError, MeteringUnavailableError, RateLimitedError, RegistrationsBusyError } from '../../shared/domain-errors.ts';
import { utcDay } from '../../shared/metering-protocol/day.ts';
import { hashApiKey, isWellFormedKey } from '../../shared/metering-protocol/keys.ts';
import type { NatsAuth } from '../../shared/nats-auth/credentials.ts';
import type { LeaseReply } from '../../shared/metering-protocol/protocol.ts';
import { Lru } from '../../shared/lru.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import { RegistrationGate } from '../guards/registration-gate.ts';
import { UnknownKeys } from '../guards/unknown-keys.ts';
import type { WorkerStats } from '../metrics/worker-stats.ts';
import { Allowance, HOST_ASK_MS, REFILL_AT_SHARE, type Decision, type Holder, type Return } from './allowance.ts';
import { HostLedger, type StorageEvents } from './host-ledger.ts';
import { HostTakes } from './host-takes.ts';
import type { Admission, Meter, MeteringHealth, Registration, RegistrationInput } from './meter.ts';
import { LeaseSweeper } from './sweeper.ts';
import { connectTransport, type MeteringTransport } from './transport.ts';

/**
 * Longest an admission waits for the metering service, over all its lease requests (a reply discarded after
 * a reconnect makes a second one): past it the request fails closed, fast, as internal_error.
 */
export const ADMISSION_DEADLINE_MS = 1000;
/**
 * Keys whose hash a worker remembers: hashing every request's key would be a large share of a lookup's cost in
 * the worker. Twice the 10,000 light keys of the bench's many-clients section, so that a round robin over them
 * still hits (a cache smaller than a cyclic working set never does).
 */
export const HASH_CACHE_SIZE = 20_000;
/**
 * /healthz's view of metering: a healthy answer serves every /healthz of the next second, and while one ping is
 * out every /healthz waits for it, so a flood of /healthz is not a flood of pings on metering's one thread. An
 * unhealthy answer is not kept: recovery shows at the next /healthz (a ping to a metering that is down is
 * answered by NATS itself, no responders). A load balancer polling every few seconds sees a failure within 1 s.
 */
export const HEALTH_CACHE_MS = 1000;

/** A ping to metering for /healthz: sent at `at`, still out (`pending`), or answered healthy or not. */
interface HealthAnswer {
  at: number;
  pending: boolean;
  healthy: boolean;
  answer: Promise<MeteringHealth>;
}

export interface ConnectMeterOptions {
  natsUrl: string | string[];
  /** The api role's NATS user and inbox prefix (services/shared/nats-auth); none on a bus without users. */
  natsAuth?: NatsAuth;
  workerName: string;
  /** DATA_DIR: the host's shared allowance lives in DATA_DIR/host-allowance, one per host. */
  dataDir: string;
  /** Injected clock (ms since epoch); defaults to Date.now. */
  now?: () => number;
  /** Lease requests' outcomes and round trips, and the guards' refusals, for the metrics. */
  stats?: Pick<WorkerStats, 'lease' | 'guarded'>;
  /** Told once when the host's allowance file stops taking commits (a full disk), and once when it takes them again. */
  storage?: StorageEvents;
}

export async function connectMeter(options: ConnectMeterOptions): Promise<Meter> {
  const meter = new NatsMeter(options);
  await meter.connect();
  return meter;
}

/**
 * A meter that connects in the background, trying until NATS answers: the worker listens at once (the website
 * and the downloads need no metering), and metered requests and registrations fail closed until it is connected.
 * `onConnectError` hears of a first connection that failed for good (credentials refused).
 */
export function startMeter(options: ConnectMeterOptions, onConnectError: (error: unknown) => void): Meter {
  const meter = new NatsMeter(options);
  meter.connect(true).catch(onConnectError);
  return meter;
}

export class NatsMeter implements Meter {
  readonly allowance: Allowance;
  #transport: MeteringTransport | undefined;
  readonly #now: () => number;
  readonly #sweeper: LeaseSweeper;
  /** The admissions of this turn that take a unit of the host's, committed together. */
  readonly #takes: HostTakes;
  /**
   * Bumped by every keys-changed broadcast and reconnect, so that a lease reply that raced with one is not
   * trusted. Not by refusals of unknown keys: a flood of bad keys must not discard good keys' grants.
   */
  #epoch = 0;
  #closing: Promise<void> | undefined;
  /** SHA-256 of recently seen keys; only well-formed keys enter it. */
  readonly #hashes = new Lru<string>(HASH_CACHE_SIZE);
  /** Event-loop turns, counted while admissions happen: two units of a slot taken in one turn mean volume. */
  #turn = 0;
  #turnEnding = false;
  readonly #registrations: RegistrationGate;
  readonly #unknownKeys = new UnknownKeys();
  #health: HealthAnswer | undefined;
  readonly #endTurn = (): void => {
    this.#turn++;
    this.#turnEnding = false;
  };

  constructor(private readonly o: ConnectMeterOptions) {
    this.#now = o.now ?? Date.now;
    this.allowance = new Allowance(new HostLedger(o.dataDir, o.storage), (r) => this.#giveBack(r));
    this.#takes = new HostTakes(this.allowance.host, this.#now, REFILL_AT_SHARE, HOST_ASK_MS);
    this.#sweeper = new LeaseSweeper(this.allowance, this.#now);
    this.#registrations = new RegistrationGate(this.#now);
  }

  async connect(waitOnFirstConnect = false): Promise<void> {
    const transport = await connectTransport(
      {
        natsUrl: this.o.natsUrl,
        natsAuth: this.o.natsAuth,
        waitOnFirstConnect,
        workerName: this.o.workerName,
        hostHolder: this.allowance.host.hostId,
        stats: this.o.stats,
        epoch: () => this.#epoch,
        holding: (hash, endpoint, holder, day) => this.allowance.holding(hash, endpoint, holder, day),
        hostRequestId: (hash, endpoint, day) => this.allowance.host.pendingRequest(hash, endpoint, day),
      },
      {
        keysChanged: (hashes) => {
          for (const hash of hashes) this.#invalidate(hash);
        },
        reclaim: (holder, keyId, endpoint, day) => this.allowance.reclaim(holder, keyId, endpoint, day),
        reconnected: () => {
          // Broadcasts sent while we were away are lost: forget every key, here and on the host.
          this.#epoch++;
          this.allowance.forgetAll();
        },
      },
    );
    // Closed while it was connecting (a worker stopped before NATS came up): nothing is left open.
    if (this.#closing !== undefined) {
      await transport.close(false);
      return;
    }
    this.#transport = transport;
  }

  get #nats(): MeteringTransport {
    if (this.#transport === undefined) throw new MeteringUnavailableError('metering is not connected yet');
    return this.#transport;
  }

  admit(apiKey: string, endpoint: MeteredEndpoint, clientIp?: string): Promise<Admission> {
    // Malformed keys are refused without any lookup.
    if (!isWellFormedKey(apiKey)) return Promise.reject(new InvalidApiKeyError('malformed API key'));
    const hash = this.#hashOf(apiKey);
    const turn = this.#currentTurn();
    const held = this.allowance.decideHeld(hash, endpoint, this.#now(), turn);
    if (held.kind === 'take') return this.#takeShared(hash, endpoint, held.day, turn);
    const decision = this.#sendAhead(hash, endpoint, held);
    if (decision.kind === 'admitted') return Promise.resolve(decision.admission);
    if (decision.kind === 'refused') return Promise.reject(decision.error);
    if (clientIp === undefined || this.allowance.keys.get(hash) !== undefined) return this.#admitSlowly(hash, endpoint, decision.holder);
    // A key this worker does not know, from an address whose keys keep turning out unknown: no lookup.
    if (this.#unknownKeys.exhausted(clientIp, this.#now())) {
      this.o.stats?.guarded('unknown_keys');
      return Promise.reject(new InvalidApiKeyError('unknown keys from this address at their limit'));
    }
    return this.#admitSlowly(hash, endpoint, decision.holder).catch((error: unknown) => {
      if (error instanceof InvalidApiKeyError) this.#unknownKeys.refused(clientIp, this.#now());
      throw error;
    });
  }

  admitNow(apiKey: string, endpoint: MeteredEndpoint): Admission | Promise<Admission> | undefined {
    if (!isWellFormedKey(apiKey)) throw new InvalidApiKeyError('malformed API key');
    const hash = this.#hashOf(apiKey);
    const turn = this.#currentTurn();
    const held = this.allowance.decideHeld(hash, endpoint, this.#now(), turn);
    if (held.kind === 'take') return this.#takeShared(hash, endpoint, held.day, turn);
    const decision = this.#sendAhead(hash, endpoint, held);
    if (decision.kind === 'refused') throw decision.error;
    return decision.kind === 'admitted' ? decision.admission : undefined;
  }

  /**
   * A unit of the host's: taken in the commit of this turn's takes (host-takes.ts), then decided, with no round
   * trip unless the host's units ran out meanwhile.
   */
  #takeShared(hash: string, endpoint: MeteredEndpoint, day: string, turn: number): Promise<Admission> {
    return new Promise((resolve, reject) => {
      this.#takes.take(hash, endpoint, day, (shared) => {
        // A commit that failed: nothing of it counts, and the request fails closed.
        if (shared instanceof Error) return reject(shared);
        const decision = this.#sendAhead(hash, endpoint, this.allowance.decideTaken(hash, endpoint, day, this.#now(), turn, shared));
        if (decision.kind === 'admitted') resolve(decision.admission);
        else if (decision.kind === 'refused') reject(decision.error);
        else this.#admitSlowly(hash, endpoint, decision.holder).then(resolve, reject);
      });
    });
  }

  #hashOf(apiKey: string): string {
    let hash = this.#hashes.get(apiKey);
    if (hash === undefined) {
      hash = hashApiKey(apiKey);
      this.#hashes.set(apiKey, hash);
    }
    return hash;
  }

  /** The allowance's decision (one take of the host's on its own); see #sendAhead. */
  #decide(hash: string, endpoint: MeteredEndpoint): Decision {
    return this.#sendAhead(hash, endpoint, this.allowance.decide(hash, endpoint, this.#now(), this.#currentTurn()));
  }

  /** A request for units that the decision says to send ahead goes out in the background. */
  #sendAhead(hash: string, endpoint: MeteredEndpoint, decision: Decision): Decision {
    const ahead = decision.kind === 'admitted' ? decision.ahead : undefined;
    if (ahead !== undefined && this.#transport !== undefined && !this.#transport.leases.inFlight(hash, endpoint, ahead.holder)) {
      // Nothing waits on it: if it fails, the admission that finds nothing held asks again and reports.
      this.#ask(hash, endpoint, ahead.holder, ahead.day, Math.max(1, ahead.ahead)).catch(() => {
        if (ahead.holder === 'host') this.allowance.host.askFailed(hash, endpoint, ahead.day);
      });
    }
    return decision;
  }

  /** #admitAsking; a full disk met on the way ends the healthy /healthz answer kept (HEALTH_CACHE_MS) at once. */
  #admitSlowly(hash: string, endpoint: MeteredEndpoint, first: Holder): Promise<Admission> {
    return this.#admitAsking(hash, endpoint, first).catch((error: unknown) => {
      this.#storageFailed(error);
      throw error;
    });
  }

  /** From the first commit that failed for lack of space, /healthz asks again rather than answer a kept 200. */
  #storageFailed(error: unknown): void {
    if (error instanceof MeteringStorageError) this.#health = undefined;
  }

  async #admitAsking(hash: string, endpoint: MeteredEndpoint, first: Holder): Promise<Admission> {
    const deadline = performance.now() + ADMISSION_DEADLINE_MS;
    let holder = first;
    for (;;) {
      const left = deadline - performance.now();
      if (left <= 0) throw new MeteringUnavailableError('no allowance within the admission deadline');
      // The request goes on after the deadline: a grant is still applied and serves later requests.
      await withDeadline(this.#ask(hash, endpoint, holder, undefined, 0), left);
      const decision = this.#decide(hash, endpoint);
      if (decision.kind === 'admitted') return decision.admission;
      if (decision.kind === 'refused') throw decision.error;
      holder = decision.holder;
    }
  }

  /** One request for units of a slot (joined by the admissions that wait for the same); `ahead` 0: for a waiting admission. */
  #ask(hash: string, endpoint: MeteredEndpoint, holder: Holder, day: string | undefined, ahead: number): Promise<void> {
    const askedFor = day ?? utcDay(this.#now());
    // Not connected yet (NATS down since start): the admission fails closed, as a rejection, never a throw.
    if (this.#transport === undefined) return Promise.reject(new MeteringUnavailableError('metering is not connected yet'));
    return this.#transport.leases.acquire(hash, endpoint, askedFor, holder, ahead, (reply, sentAtEpoch, requestId) =>
      this.#apply(hash, endpoint, holder, reply, sentAtEpoch, requestId),
    );
  }

  #apply(hash: string, endpoint: MeteredEndpoint, holder: Holder, reply: LeaseReply, sentAtEpoch: number, requestId: string): void {
    if (reply.status !== 'invalid' && this.#epoch !== sentAtEpoch) {
      // A keys-changed broadcast arrived while this request was out: the key may now be revoked. Give the
      // units back and let the waiters ask again, so that the service checks the key again. A host's grant is
      // this worker's to give back only if no other worker of the host has applied the same reply.
      if (reply.status === 'granted' && (holder === 'worker' || this.allowance.host.discard(hash, endpoint, reply.day, requestId))) {
        void this.#nats.releaseRetrying(holder, { keyHash: hash, keyId: reply.key.id, endpoint, day: reply.day }, reply.ranges, false);
      }
      return;
    }
    this.allowance.apply(hash, endpoint, holder, reply, this.#now(), requestId);
  }

  /** The current event-loop turn; the next one starts once this turn's callbacks have run. */
  #currentTurn(): number {
    if (!this.#turnEnding) {
      this.#turnEnding = true;
      setImmediate(this.#endTurn);
    }
    return this.#turn;
  }

  /** A key changed at the service (revoked, suspended, reinstated, plan, expiry): forget it everywhere. */
  #invalidate(hash: string): void {
    this.#epoch++;
    this.allowance.forget(hash);
  }

  /**
   * Sends units back. Once sent they are never used here again, whatever the outcome; only when NATS says
   * nobody listens (so nobody got them) do a quiet return's idle units go back into their lease.
   */
  #giveBack(r: Return): void {
    const transport = this.#transport;
    if (transport === undefined) return;
    const slot = { keyHash: r.keyHash, keyId: r.keyId, endpoint: r.endpoint, day: r.day };
    const lease = r.keepIn;
    if (lease === undefined) {
      // Units that must go back are retried until the service answers, so that a reconnect or a metering
      // restart does not strand them as counted-but-never-served.
      void transport.releaseRetrying(r.holder, slot, r.ranges, r.drained);
      return;
    }
    void transport.release(r.holder, slot, r.ranges, r.drained).then(({ heard }) => {
      if (!heard) {
        if (this.allowance.keys.get(r.keyHash)?.leases.get(r.endpoint) === lease) lease.add(r.ranges, lease.lastUsedAt);
        return;
      }
      // The key is no longer at volume here, and the host's count rests on a grant from before this block came
      // back: the host asks for its next block now, which brings the count it reports up to date.
      if (this.allowance.host.holding(r.keyHash, r.endpoint, r.day).length > 0 && !transport.leases.inFlight(r.keyHash, r.endpoint, 'host')) {
        this.#ask(r.keyHash, r.endpoint, 'host', r.day, 1).catch(() => undefined);
      }
    });
  }

  cachedKeys(): number {
    return this.allowance.keys.usable.size;
  }

  refuseRegistration(clientIp: string): void {
    try {
      this.#registrations.refuseEarly(clientIp);
    } catch (error) {
      this.o.stats?.guarded('registration');
      throw error;
    }
  }

  /**
   * Through the worker's gate (guards/registration-gate.ts). A key issued here needs nothing from the negative
   * cache to work at once: 160 random bits were never refused before.
   */
  register(input: RegistrationInput, clientIp: string): Promise<Registration> {
    // Not connected yet (NATS down since start): fails closed, as a rejection.
    const ask = () =>
      this.#transport === undefined ? Promise.reject(new MeteringUnavailableError('metering is not connected yet')) : this.#transport.register(input, clientIp);
    return this.#registrations.register(clientIp, ask).catch((error: unknown) => {
      this.#storageFailed(error);
      if (error instanceof RateLimitedError) this.o.stats?.guarded('registration');
      else if (error instanceof RegistrationsBusyError) this.o.stats?.guarded('registrations_busy');
      throw error;
    });
  }

  health(): Promise<MeteringHealth> {
    if (this.#transport === undefined) return Promise.resolve({ reachable: false, canCommit: false });
    const kept = this.#health;
    if (kept !== undefined && (kept.pending || (kept.healthy && performance.now() - kept.at < HEALTH_CACHE_MS))) return kept.answer;
    const asked: HealthAnswer = { at: performance.now(), pending: true, healthy: false, answer: this.#nats.health() };
    this.#health = asked;
    void asked.answer.then((h) => {
      asked.pending = false;
      asked.healthy = h.reachable && h.canCommit;
    });
    return asked.answer;
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  /** The worker's own blocks go back; the host's units stay with the host, for its other workers and its next start. */
  async #shutdown(): Promise<void> {
    this.#sweeper.stop();
    const transport = this.#transport;
    if (transport !== undefined && transport.connected) {
      const returns: Promise<unknown>[] = [];
      for (const entry of this.allowance.keys.usable.values()) {
        for (const [endpoint, lease] of entry.leases) {
          const ranges = lease.drain();
          if (ranges.length === 0 && !lease.takeUnreported()) continue;
          returns.push(transport.release('worker', { keyHash: entry.hash, keyId: entry.info.id, endpoint, day: lease.day }, ranges, true));
        }
      }
      await Promise.allSettled(returns);
    }
    // While NATS is down, returns could only time out; the held units stay counted (bounded by the block sizes).
    await transport?.close(transport.connected);
    await this.allowance.host.close();
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
