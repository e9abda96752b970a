// A worker's requests to the metering service for one key and endpoint: one request counting a single
// admission that is alone, or one lease request for a block shared by every admission waiting (sized for them
// or for the worker's rate); each retried with the same id after a lost reply.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

import type { NatsConnection } from 'nats';

import { MeteringStorageError, MeteringUnavailableError } from '../../shared/domain-errors.ts';
import { call, MeteringServiceError } from '../../shared/metering-protocol/client.ts';
import { MAX_LEASE_WANT, RPC, type AdmitReply, type LeaseReply } from '../../shared/metering-protocol/protocol.ts';
import type { Range } from '../../shared/metering-protocol/ranges.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { WorkerStats } from '../metrics/worker-stats.ts';

interface Acquisition {
  waiters: number;
  ahead: number;
  /** May be answered by counting its one admission, if it is still alone when sent. */
  mayCount: boolean;
  promise: Promise<Counted | undefined>;
}

/** An admission the service counted by itself, and the epoch when it was asked. */
export interface Counted {
  reply: AdmitReply;
  sentAtEpoch: number;
}

export interface LeaseRequestsOptions {
  nc: NatsConnection;
  holder: string;
  workerName: string;
  connected: () => boolean;
  /** Read when the request is sent and handed to `apply`, to detect invalidations that raced with it. */
  epoch: () => number;
  /** Counts each request's outcome and round trip (the metrics). */
  stats?: Pick<WorkerStats, 'lease'>;
  /** The units of a slot this worker holds unused now (sent along, for the service's count of leased units). */
  holding: (hash: string, endpoint: MeteredEndpoint) => Range[];
}

export class LeaseRequests {
  /** Lease requests being gathered (this event-loop turn) or out, one per key and endpoint. */
  private readonly acquiring = new Map<string, Acquisition>();
  /** Count requests out, per key and endpoint. */
  private readonly counting = new Map<string, number>();
  /** Request ids whose reply never came (timeout), per slot and kind: reused so that a committed answer comes back. */
  private readonly unanswered = new Map<string, string>();

  constructor(private readonly o: LeaseRequestsOptions) {}

  /** Whether a lease request for this key and endpoint is being gathered or is out. */
  inFlight(hash: string, endpoint: MeteredEndpoint): boolean {
    return this.acquiring.has(`${hash}|${endpoint}`);
  }

  /**
   * One admission needs the service. When it is alone (`atVolume` false, no other admission of the key and
   * endpoint waiting in this worker, none joining within this event-loop turn) the service counts it and the
   * promise resolves with that answer. Otherwise it waits for one lease request shared by all of them, and
   * resolves with undefined once the grant is applied (`apply`, before any waiter resumes).
   */
  acquire(
    hash: string,
    endpoint: MeteredEndpoint,
    day: string,
    atVolume: boolean,
    apply: (reply: LeaseReply, sentAtEpoch: number) => void,
  ): Promise<Counted | undefined> {
    const id = `${hash}|${endpoint}`;
    const running = this.acquiring.get(id);
    if (running) {
      running.waiters++;
      running.mayCount = false;
      return running.promise.then(() => undefined);
    }
    // Another admission of the slot is out being counted: two of its requests met here.
    return this.start(id, hash, endpoint, day, { ahead: 0, mayCount: !atVolume && !this.counting.has(id) }, apply);
  }

  /**
   * A lease request sized for `ahead` units (what the worker's rate will take before it can ask again), sent
   * while units are still held; joins the one already out, if any.
   */
  refill(hash: string, endpoint: MeteredEndpoint, day: string, ahead: number, apply: (reply: LeaseReply, sentAtEpoch: number) => void): Promise<void> {
    const id = `${hash}|${endpoint}`;
    const running = this.acquiring.get(id);
    if (running) return running.promise.then(() => undefined);
    return this.start(id, hash, endpoint, day, { ahead, mayCount: false }, apply).then(() => undefined);
  }

  private start(
    id: string,
    hash: string,
    endpoint: MeteredEndpoint,
    day: string,
    how: { ahead: number; mayCount: boolean },
    apply: (reply: LeaseReply, sentAtEpoch: number) => void,
  ): Promise<Counted | undefined> {
    const acq: Acquisition = { waiters: 1, ahead: how.ahead, mayCount: how.mayCount, promise: Promise.resolve(undefined) };
    acq.promise = this.send(id, hash, endpoint, day, acq, apply).finally(() => {
      if (this.acquiring.get(id) === acq) this.acquiring.delete(id);
    });
    this.acquiring.set(id, acq);
    return acq.promise;
  }

  private async send(
    id: string,
    hash: string,
    endpoint: MeteredEndpoint,
    day: string,
    acq: Acquisition,
    apply: (reply: LeaseReply, sentAtEpoch: number) => void,
  ): Promise<Counted | undefined> {
    // Let the admissions of this event-loop turn join first: then they share one block sized for all of them.
    await nextTurn();
    if (!this.o.connected()) throw new MeteringUnavailableError('NATS connection is down');
    const epoch = this.o.epoch();
    const { holder, workerName: worker } = this.o;
    const holding = this.o.holding(hash, endpoint).map(([a, b]): [number, number] => [a, b]);
    // A request whose answer was lost is asked again first, as the same kind with the same id: the service
    // answers it without counting again, so that what it committed is not lost (a count, or a block).
    const countLost = this.unanswered.has(`${id}|${day}|admit`) && !this.counting.has(id);
    const leaseLost = this.unanswered.has(`${id}|${day}|lease`);
    if (countLost || (acq.mayCount && acq.waiters === 1 && !leaseLost)) {
      // Alone: later admissions must not wait for an answer that serves this one only.
      this.acquiring.delete(id);
      this.counting.set(id, (this.counting.get(id) ?? 0) + 1);
      try {
        const requestId = this.requestId(`${id}|${day}|admit`);
        const sent = performance.now();
        let reply: AdmitReply;
        try {
          reply = await call(this.o.nc, RPC.admit, { holder, worker, requestId, keyHash: hash, endpoint, day, holding });
        } catch (error) {
          this.o.stats?.lease('failed', performance.now() - sent);
          throw storageFailureOf(error);
        }
        this.o.stats?.lease(reply.status === 'admitted' ? 'counted' : reply.status, performance.now() - sent);
        this.unanswered.delete(`${id}|${day}|admit`);
        return { reply, sentAtEpoch: epoch };
      } finally {
        const left = (this.counting.get(id) ?? 1) - 1;
        if (left > 0) this.counting.set(id, left);
        else this.counting.delete(id);
      }
    }
    const slot = `${id}|${day}|lease`;
    const requestId = this.requestId(slot);
    const want = Math.min(MAX_LEASE_WANT, Math.max(acq.waiters, acq.ahead));
    const sent = performance.now();
    let reply: LeaseReply;
    try {
      reply = await call(this.o.nc, RPC.lease, { holder, worker, requestId, keyHash: hash, endpoint, day, want, holding });
    } catch (error) {
      this.o.stats?.lease('failed', performance.now() - sent);
      throw storageFailureOf(error);
    }
    this.o.stats?.lease(reply.status, performance.now() - sent);
    this.unanswered.delete(slot);
    apply(reply, epoch);
    return undefined;
  }

  /**
   * The id of the next request for `slot`: a new one, or the one whose reply was lost. Kept on every failure,
   * "no responders" included: a retry of a lost request must keep its id even if it first meets a metering
   * that is still down. An id the service never saw is simply answered afresh.
   */
  private requestId(slot: string): string {
    let requestId = this.unanswered.get(slot);
    if (requestId === undefined) {
      requestId = randomBytes(8).toString('hex');
      this.unanswered.set(slot, requestId);
    }
    return requestId;
  }
}

/** The service logged its storage failure once; the admission fails closed without a line per request. */
function storageFailureOf(error: unknown): unknown {
  return error instanceof MeteringServiceError && error.kind === 'unavailable' ? new MeteringStorageError(error.message, { cause: error }) : error;
}
