// The worker's NATS side of metering: the connection and its status, the lease requests, the returns, and the
// subjects metering reaches the worker on (keys changed, reclaims of this worker's or its host's units).
import { randomBytes } from 'node:crypto';

import { connect, Events, type NatsConnection, type Subscription } from 'nats';

import { NATS_SERVER_ORDER } from '../../shared/env.ts';
import { call, encodeJson, tryDecodeJson } from '../../shared/metering-protocol/client.ts';
import { keysChangedEvent, reclaimRequest, RPC } from '../../shared/metering-protocol/protocol.ts';
import type { NatsAuth } from '../../shared/nats-auth/credentials.ts';
import type { Range } from '../../shared/metering-protocol/ranges.ts';
import { KEYS_CHANGED_SUBJECT, reclaimSubject } from '../../shared/metering-protocol/subjects.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { WorkerStats } from '../metrics/worker-stats.ts';
import type { Holder } from './allowance.ts';
import { LeaseRequests, type LeaseRequestsOptions } from './lease-requests.ts';
import type { MeteringHealth, Registration, RegistrationInput } from './meter.ts';
import { register } from './register.ts';
import { returnUnits, returnUnitsRetrying, type ReturnOutcome, type Slot } from './returns.ts';

/** Reconnect quickly after a NATS restart and never give up: the worker recovers by itself. */
export const RECONNECT_TIME_WAIT_MS = 250;
/** The workers of one host answer a reclaim of the host's units in this queue group: one of them drains it. */
export const HOST_RECLAIM_QUEUE = 'host';

/** What metering asks of the worker, and what the connection reports. */
export interface TransportEvents {
  keysChanged(keyHashes: readonly string[]): void;
  /** Drains and returns the holder's unused units of the slot. */
  reclaim(holder: Holder, keyId: string, endpoint: MeteredEndpoint, day: string): Range[];
  /** The connection is back after a loss: broadcasts may have been missed. */
  reconnected(): void;
}

export interface TransportOptions {
  natsUrl: string | string[];
  natsAuth?: NatsAuth;
  /** Keep trying the first connection until NATS answers (a worker started while NATS is down), instead of failing. */
  waitOnFirstConnect?: boolean;
  workerName: string;
  /** The host's lease-holder id (HostLedger.hostId). */
  hostHolder: string;
  stats?: Pick<WorkerStats, 'lease'>;
  epoch: () => number;
  holding: (hash: string, endpoint: MeteredEndpoint, holder: Holder, day: string) => Range[];
  hostRequestId: LeaseRequestsOptions['hostRequestId'];
}

export async function connectTransport(o: TransportOptions, events: TransportEvents): Promise<MeteringTransport> {
  const nc = await connect({ servers: o.natsUrl, ...NATS_SERVER_ORDER, ...o.natsAuth, waitOnFirstConnect: o.waitOnFirstConnect ?? false, name: o.workerName, maxReconnectAttempts: -1, reconnectTimeWait: RECONNECT_TIME_WAIT_MS });
  return new MeteringTransport(nc, o, events);
}

export class MeteringTransport {
  /** This connection's lease-holder id, for the blocks of keys at volume in this worker. */
  readonly workerHolder = randomBytes(8).toString('hex');
  readonly leases: LeaseRequests;
  #connected = true;
  readonly #subs: Subscription[];

  constructor(
    readonly nc: NatsConnection,
    private readonly o: TransportOptions,
    events: TransportEvents,
  ) {
    const onReclaim = (holder: Holder) => (err: Error | null, msg: { data: Uint8Array; respond(data: Uint8Array): boolean }) => {
      if (err) return;
      // One turn later: a grant that arrived in the same read has then been applied and handed out.
      setImmediate(() => {
        const parsed = reclaimRequest.safeParse(tryDecodeJson(msg.data));
        const ranges = parsed.success ? events.reclaim(holder, parsed.data.keyId, parsed.data.endpoint, parsed.data.day) : [];
        msg.respond(encodeJson({ ranges }));
      });
    };
    this.#subs = [
      nc.subscribe(KEYS_CHANGED_SUBJECT, {
        callback: (err, msg) => {
          const parsed = err ? undefined : keysChangedEvent.safeParse(tryDecodeJson(msg.data));
          if (parsed?.success) events.keysChanged(parsed.data.keyHashes);
        },
      }),
      nc.subscribe(reclaimSubject(this.workerHolder), { callback: onReclaim('worker') }),
      nc.subscribe(reclaimSubject(o.hostHolder), { queue: HOST_RECLAIM_QUEUE, callback: onReclaim('host') }),
    ];
    this.leases = new LeaseRequests({
      nc,
      holderId: (holder) => this.holderId(holder),
      workerName: o.workerName,
      connected: () => this.#connected,
      epoch: o.epoch,
      stats: o.stats,
      holding: o.holding,
      hostRequestId: o.hostRequestId,
    });
    void this.#watchStatus(events);
  }

  get connected(): boolean {
    return this.#connected;
  }

  holderId(holder: Holder): string {
    return holder === 'host' ? this.o.hostHolder : this.workerHolder;
  }

  /** Returns units; not heard only when NATS said nobody listens (the caller may keep using them). */
  release(holder: Holder, slot: Slot, ranges: readonly Range[], drained: boolean): Promise<ReturnOutcome> {
    return returnUnits(this.nc, this.holderId(holder), slot, ranges, drained);
  }

  /** Returns units that must go back, retrying until the service answers. */
  releaseRetrying(holder: Holder, slot: Slot, ranges: readonly Range[], drained: boolean): Promise<void> {
    return returnUnitsRetrying(this.nc, this.holderId(holder), slot, ranges, drained);
  }

  register(input: RegistrationInput, clientIp: string): Promise<Registration> {
    return register(this.nc, input, clientIp);
  }

  health(): Promise<MeteringHealth> {
    return call(this.nc, RPC.ping, {}).then(
      ({ storage }): MeteringHealth =>
        storage === undefined || storage.canCommit
          ? { reachable: true, canCommit: true }
          : { reachable: true, canCommit: false, storageError: storage.error ?? 'unknown' },
      (): MeteringHealth => ({ reachable: false, canCommit: false }),
    );
  }

  /** Drains the connection (`drain`), or closes it at once (NATS is down: nothing could be flushed). */
  async close(drain: boolean): Promise<void> {
    if (!drain) return this.nc.close();
    for (const sub of this.#subs) sub.unsubscribe();
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => undefined);
  }

  async #watchStatus(events: TransportEvents): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === Events.Disconnect) this.#connected = false;
      else if (status.type === Events.Reconnect) {
        this.#connected = true;
        events.reconnected();
      }
    }
  }
}
