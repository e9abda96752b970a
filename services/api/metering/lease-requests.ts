// A worker's lease requests: one in flight per key and endpoint (concurrent admissions share it), sized
// for every admission waiting or for the worker's rate, and retried with the same id after a lost reply.
import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';

import type { NatsConnection } from 'nats';

import { MeteringStorageError, MeteringUnavailableError } from '../../shared/domain-errors.ts';
import { call, MeteringServiceError } from '../../shared/metering/client.ts';
import { MAX_LEASE_WANT, RPC, type LeaseReply } from '../../shared/metering/protocol.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';

interface Acquisition {
  waiters: number;
  ahead: number;
  promise: Promise<void>;
}

export interface LeaseRequestsOptions {
  nc: NatsConnection;
  holder: string;
  workerName: string;
  connected: () => boolean;
  /** Read when the request is sent and handed to `apply`, to detect invalidations that raced with it. */
  epoch: () => number;
}

export class LeaseRequests {
  private readonly acquiring = new Map<string, Acquisition>();
  /** Request ids whose reply never came (timeout): reused so that a committed grant comes back. */
  private readonly unanswered = new Map<string, string>();

  constructor(private readonly o: LeaseRequestsOptions) {}

  /** Whether a request for this key and endpoint is out. */
  inFlight(hash: string, endpoint: MeteredEndpoint): boolean {
    return this.acquiring.has(`${hash}|${endpoint}`);
  }

  /**
   * Asks for a lease unless one request for this key and endpoint is already out, in which case the caller
   * waits for that one. `apply` runs once with the reply, before any waiter resumes. `ahead` is what the
   * worker's rate will take before it can ask again: the block is sized for it or for the waiters, whichever
   * is more.
   */
  request(
    hash: string,
    endpoint: MeteredEndpoint,
    day: string,
    apply: (reply: LeaseReply, sentAtEpoch: number) => void,
    ahead = 0,
  ): Promise<void> {
    const id = `${hash}|${endpoint}`;
    const running = this.acquiring.get(id);
    if (running) {
      running.waiters++;
      return running.promise;
    }
    const acq: Acquisition = { waiters: 1, ahead, promise: Promise.resolve() };
    acq.promise = this.send(hash, endpoint, day, acq, apply).finally(() => this.acquiring.delete(id));
    this.acquiring.set(id, acq);
    return acq.promise;
  }

  private async send(
    hash: string,
    endpoint: MeteredEndpoint,
    day: string,
    acq: Acquisition,
    apply: (reply: LeaseReply, sentAtEpoch: number) => void,
  ): Promise<void> {
    // Let the admissions of this event-loop turn join first, so that the block is sized for all of them.
    await nextTurn();
    if (!this.o.connected()) throw new MeteringUnavailableError('NATS connection is down');
    const epoch = this.o.epoch();
    const slot = `${hash}|${endpoint}|${day}`;
    const requestId = this.unanswered.get(slot) ?? randomBytes(8).toString('hex');
    this.unanswered.set(slot, requestId);
    // Kept on every failure, "no responders" included: a retry of a lost request must keep its id even if
    // it first meets a metering that is still down. An id the service never saw is simply granted afresh.
    const { holder, workerName: worker } = this.o;
    const want = Math.min(MAX_LEASE_WANT, Math.max(acq.waiters, acq.ahead));
    const reply = await call(this.o.nc, RPC.lease, { holder, worker, requestId, keyHash: hash, endpoint, day, want }).catch(
      (err: unknown) => {
        // The service logged its storage failure once; the admission fails closed without a line per request.
        throw err instanceof MeteringServiceError && err.kind === 'unavailable' ? new MeteringStorageError(err.message, { cause: err }) : err;
      },
    );
    this.unanswered.delete(slot);
    apply(reply, epoch);
  }
}
