// dict.metering.v1.lease: authenticates a key by its hash and grants a block of numbered daily units for
// one endpoint, reclaiming idle units from other holders when nothing else is left.
import { daysBetween, utcDay } from '../../shared/metering/day.ts';
import type { KeyInfo, LeaseReply, LeaseRequest } from '../../shared/metering/protocol.ts';
import { DAILY_LIMITS } from '../../shared/plans.ts';
import { ServiceFault, type MeteringContext } from '../context.ts';
import type { KeyWithDeveloper } from '../store/accounts.ts';
import type { Slot } from '../store/quota.ts';

export async function handleLease(ctx: MeteringContext, req: LeaseRequest): Promise<LeaseReply> {
  // Workers name the day by their own clock; a day either side of ours absorbs clock skew at midnight.
  if (Math.abs(daysBetween(utcDay(ctx.now()), req.day)) > 1) {
    throw new ServiceFault('bad_request', `day ${req.day} is not current`);
  }
  const first = ctx.accounts.usableKey(req.keyHash, ctx.now());
  if (!first) return { status: 'invalid' };
  const slot: Slot = { keyId: first.id, endpoint: req.endpoint, day: req.day };

  return ctx.serialize(`${slot.keyId}|${slot.endpoint}|${slot.day}`, async () => {
    let outcome = grantNow(ctx, req, slot);
    if (outcome.status === 'exhausted') {
      const holders = ctx.quota.otherHolders(slot, req.holder);
      if (holders.length > 0) {
        // Spec: no success withheld while allowance remains. Units idle in other workers come back here.
        const returned = await Promise.all(holders.map((h) => ctx.reclaim(h, slot)));
        holders.forEach((h, i) => ctx.quota.release(slot, h, returned[i], ctx.now()));
        outcome = grantNow(ctx, req, slot);
      }
    }
    return outcome;
  });
}

/** Re-reads the key inside the slot's turn (it may have been revoked meanwhile), then grants synchronously. */
function grantNow(ctx: MeteringContext, req: LeaseRequest, slot: Slot): LeaseReply {
  const key = ctx.accounts.usableKey(req.keyHash, ctx.now());
  if (!key) return { status: 'invalid' };
  const info = keyInfo(key);
  const result = ctx.quota.grant(
    slot,
    req.holder,
    req.worker,
    { limit: info.limit, want: req.want, requestId: req.requestId },
    ctx.now(),
  );
  return result.status === 'granted'
    ? { status: 'granted', key: info, day: slot.day, ranges: result.ranges.map(([a, b]) => [a, b]) }
    : { status: 'exhausted', key: info, day: slot.day, used: result.used, limit: result.limit };
}

function keyInfo(key: KeyWithDeveloper): KeyInfo {
  return { id: key.id, prefix: key.prefix, plan: key.plan, limit: DAILY_LIMITS[key.plan], expiresAt: key.expires_at };
}
