// Hands a worker's unused units back to the metering service.
import { setTimeout as sleep } from 'node:timers/promises';

import { ErrorCode, type NatsConnection } from 'nats';

import { call } from '../../shared/metering-protocol/client.ts';
import { RPC, type ReleaseRequest } from '../../shared/metering-protocol/protocol.ts';
import { releaseSubject, shardOf } from '../../shared/metering-protocol/subjects.ts';
import type { Range } from '../../shared/metering-protocol/ranges.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';

export interface Slot {
  /** The key's hash: a release goes to the metering process of its shard. */
  keyHash: string;
  keyId: string;
  endpoint: MeteredEndpoint;
  day: string;
}

/** What became of a return: `heard` is false only when NATS said nobody listens. */
export interface ReturnOutcome {
  heard: boolean;
}

/**
 * Returns `ranges` of `slot` for `holder`; `drained`: they are all the holder had left of the slot. Not heard
 * only when NATS said nobody listens, i.e. the service surely did not get them (the caller may keep using
 * them); heard when answered or unknown.
 */
export async function returnUnits(
  nc: NatsConnection,
  holder: string,
  slot: Slot,
  ranges: readonly Range[],
  drained: boolean,
): Promise<ReturnOutcome> {
  if (ranges.length === 0 && !drained) return { heard: true };
  try {
    await call(nc, RPC.release, releaseOf(holder, slot, ranges, drained), { subject: releaseSubject(shardOf(slot.keyHash)) });
    return { heard: true };
  } catch (err) {
    return { heard: !noResponders(err) };
  }
}

export function noResponders(err: unknown): boolean {
  return (err as { cause?: { code?: string } }).cause?.code === ErrorCode.NoResponders;
}

/**
 * Backoff for units that must go back (key forgotten, reconnect, day over): the metering service may still be
 * restarting or resubscribing, and a unit that is never returned stays counted until midnight.
 */
export const RETURN_RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000] as const;

/**
 * Returns `ranges` until the service answers (or the retries run out). Repeating a release that did arrive
 * is harmless: the service only takes back numbers this holder still holds.
 */
export async function returnUnitsRetrying(
  nc: NatsConnection,
  holder: string,
  slot: Slot,
  ranges: readonly Range[],
  drained: boolean,
): Promise<void> {
  if (ranges.length === 0 && !drained) return;
  const body = releaseOf(holder, slot, ranges, drained);
  for (const delay of [0, ...RETURN_RETRY_DELAYS_MS]) {
    if (delay > 0) await sleep(delay, undefined, { ref: false });
    if (nc.isClosed()) return;
    try {
      await call(nc, RPC.release, body, { subject: releaseSubject(shardOf(slot.keyHash)) });
      return;
    } catch {
      // no responders or timeout: try again after the next delay
    }
  }
}

function releaseOf(holder: string, slot: Slot, ranges: readonly Range[], drained: boolean): ReleaseRequest {
  const { keyHash, keyId, endpoint, day } = slot;
  return { holder, keyHash, keyId, endpoint, day, ranges: ranges.map(([from, to]): [number, number] => [from, to]), drained };
}
