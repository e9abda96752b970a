// Hands a worker's unused units back to the metering service.
import { ErrorCode, type NatsConnection } from 'nats';

import { call } from '../../shared/metering/client.ts';
import { RPC } from '../../shared/metering/protocol.ts';
import type { Range } from '../../shared/metering/ranges.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';

export interface Slot {
  keyId: string;
  endpoint: MeteredEndpoint;
  day: string;
}

/**
 * Returns `ranges` of `slot` for `holder`. Resolves to false only when NATS said nobody listens, i.e. the
 * service surely did not get them (the caller may keep using them); true when answered or unknown.
 */
export async function returnUnits(nc: NatsConnection, holder: string, slot: Slot, ranges: readonly Range[]): Promise<boolean> {
  if (ranges.length === 0) return true;
  try {
    const body = ranges.map(([from, to]): [number, number] => [from, to]);
    await call(nc, RPC.release, { holder, ...slot, ranges: body });
    return true;
  } catch (err) {
    return !noResponders(err);
  }
}

export function noResponders(err: unknown): boolean {
  return (err as { cause?: { code?: string } }).cause?.code === ErrorCode.NoResponders;
}
