// A worker's requests for units to the metering service: one lease request per key, endpoint and holder (this
// worker, or its host) at a time, shared by every admission waiting for it and sized for them or for the
// worker's rate; retried with the same id after a lost reply, so that a committed grant is not lost.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

import type { NatsConnection } from 'nats';

import { MeteringStorageError, MeteringUnavailableError } from '../../shared/domain-errors.ts';
import { call, MeteringServiceError } from '../../shared/metering-protocol/client.ts';
import { MAX_LEASE_WANT, RPC, type LeaseReply } from '../../shared/metering-protocol/protocol.ts';
import { leaseSubject, shardOf } from '../../shared/metering-protocol/subjects.ts';
import type { Range } from '../../shared/metering-protocol/ranges.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { WorkerStats } from '../metrics/worker-stats.ts';
import type { Holder } from './allowance.ts';

interface Acquisition {
  waiters: number;
  ahead: number;
  promise: Promise<void>;
}

/**
 * Applies a reply before any waiting admission resumes; `sentAtEpoch` tells a reply that raced with an
 * invalidation, `requestId` the request it answers.
 */
export type ApplyLease = (reply: LeaseReply, sentAtEpoch: number, requestId: string) => void;

export interface LeaseRequestsOptions {
  nc: NatsConnection;
  /** The lease-holder id metering records the units under: this worker's connection, or the host's. */
  holderId: (holder: Holder) => string;
  workerName: string;
  connected: () => boolean;
  /** Read when the request is sent and handed to `apply`, to detect invalidations that raced with it. */
  epoch: () => number;
  /** Counts each request's outcome and round trip (the metrics). */
  stats?: Pick<WorkerStats, 'lease'>;
  /** The units of a slot the holder has unused now (sent along, for the service's count of leased units). */
  holding: (hash: string, endpoint: MeteredEndpoint, holder: Holder, day: string) => Range[];
  /**
   * The host's request id for a slot, shared by its workers (HostLedger.pendingRequest): a grant whose reply
   * one worker lost comes back to the next worker that asks. The grant that joins the ledger retires it.
   */
  hostRequestId: (hash: string, endpoint: MeteredEndpoint, day: string) => string;
}

export class LeaseRequests {
  /** Lease requests being gathered (this event-loop turn) or out, one per key, endpoint and holder. */
  private readonly acquiring = new Map<string, Acquisition>();
  /** Request ids whose reply never came (timeout), per slot and holder: reused so that a committed grant comes back. */
  private readonly unanswered = new Map<string, string>();

  constructor(private readonly o: LeaseRequestsOptions) {}

  /** Whether a lease request for this key, endpoint and holder is being gathered or is out. */
  inFlight(hash: string, endpoint: MeteredEndpoint, holder: Holder): boolean {
    return this.acquiring.has(`${hash}|${endpoint}|${holder}`);
  }

  /**
   * Asks for units of a slot: for one more waiting admission (`ahead` 0), or ahead of need for `ahead` units
   * (what the worker's rate will take before it can ask again). Joins the request already gathering or out.
   * Resolves once the reply has been applied.
   */
  acquire(hash: string, endpoint: MeteredEndpoint, day: string, holder: Holder, ahead: number, apply: ApplyLease): Promise<void> {
    const id = `${hash}|${endpoint}|${holder}`;
    const running = this.acquiring.get(id);
    if (running) {
      if (ahead === 0) running.waiters++;
      return running.promise;
    }
    const acq: Acquisition = { waiters: ahead === 0 ? 1 : 0, ahead, promise: Promise.resolve() };
    acq.promise = this.send(`${id}|${day}`, { hash, endpoint, day, holder }, acq, apply).finally(() => {
      if (this.acquiring.get(id) === acq) this.acquiring.delete(id);
    });
    this.acquiring.set(id, acq);
    return acq.promise;
  }

  private async send(
    slot: string,
    r: { hash: string; endpoint: MeteredEndpoint; day: string; holder: Holder },
    acq: Acquisition,
    apply: ApplyLease,
  ): Promise<void> {
    // Let the admissions of this event-loop turn join first: then they share one block sized for all of them.
    await nextTurn();
    if (!this.o.connected()) throw new MeteringUnavailableError('NATS connection is down');
    const epoch = this.o.epoch();
    const holding = this.o.holding(r.hash, r.endpoint, r.holder, r.day).map(([a, b]): [number, number] => [a, b]);
    const request = {
      holder: this.o.holderId(r.holder),
      worker: this.o.workerName,
      requestId: r.holder === 'host' ? this.o.hostRequestId(r.hash, r.endpoint, r.day) : this.requestId(slot),
      keyHash: r.hash,
      endpoint: r.endpoint,
      day: r.day,
      want: Math.min(MAX_LEASE_WANT, Math.max(1, acq.waiters, acq.ahead)),
      holding,
    };
    const sent = performance.now();
    let reply: LeaseReply;
    try {
      reply = await call(this.o.nc, RPC.lease, request, { subject: leaseSubject(shardOf(r.hash)) });
    } catch (error) {
      this.o.stats?.lease('failed', performance.now() - sent);
      throw storageFailureOf(error);
    }
    this.o.stats?.lease(reply.status, performance.now() - sent);
    if (r.holder === 'worker') this.unanswered.delete(slot);
    apply(reply, epoch, request.requestId);
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
