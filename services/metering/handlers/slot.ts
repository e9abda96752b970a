// The lease and admit handlers' shared steps: the day and key a worker names, the key as workers cache it,
// and the units other holders give back when a slot has nothing left to hand out.
import { daysBetween, utcDay } from '../../shared/metering-protocol/day.ts';
import { DAILY_LIMITS } from '../../shared/plans.ts';
import { ServiceFault, type MeteringContext, type Shard } from '../context.ts';

import type { KeyInfo } from '../../shared/metering-protocol/protocol.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { KeyWithDeveloper } from '../store/accounts.ts';
import type { Slot } from '../store/quota.ts';

/** The slot a worker asks about, or undefined when its key is not usable (the caller answers `invalid`). */
export function slotOf(ctx: MeteringContext, req: { keyHash: string; endpoint: MeteredEndpoint; day: string }): Slot | undefined {
  // Workers name the day by their own clock; a day either side of ours absorbs clock skew at midnight.
  if (Math.abs(daysBetween(utcDay(ctx.now()), req.day)) > 1) {
    throw new ServiceFault('bad_request', `day ${req.day} is not current`);
  }
  const key = ctx.accounts.usableKey(req.keyHash, ctx.now());
  return key ? { keyId: key.id, endpoint: req.endpoint, day: req.day } : undefined;
}

/** The serialisation key of a slot: its grants, counts and releases run one after another. */
export const slotTurn = (slot: Slot): string => `${slot.keyId}|${slot.endpoint}|${slot.day}`;

export function keyInfo(key: KeyWithDeveloper): KeyInfo {
  return { id: key.id, prefix: key.prefix, plan: key.plan, limit: DAILY_LIMITS[key.plan], expiresAt: key.expires_at };
}

/**
 * Spec: no success withheld while allowance remains. Units idle in other holders come back here; a holder
 * that answers has drained its lease, so the rest of what it was granted has been used.
 */
export async function reclaimFromOthers(ctx: MeteringContext, shard: Shard, slot: Slot, asker: string): Promise<boolean> {
  const holders = shard.quota.otherHolders(slot, asker);
  if (holders.length === 0) return false;
  const returned = await Promise.all(holders.map((h) => ctx.reclaim(h, slot)));
  await shard.commits.run(() =>
    holders.forEach((h, i) => {
      const ranges = returned[i];
      if (ranges !== undefined) shard.quota.release(slot, h, ranges, ctx.now(), true);
    }),
  );
  return true;
}
