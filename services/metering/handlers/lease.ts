// dict.metering.v1.lease: authenticates a key by its hash and grants a block of numbered daily units for
// one endpoint, reclaiming idle units from other holders when nothing else is left.
import type { LeaseReply, LeaseRequest } from '../../shared/metering-protocol/protocol.ts';
import type { MeteringContext } from '../context.ts';
import type { Slot } from '../store/quota.ts';
import { keyInfo, reclaimFromOthers, slotOf, slotTurn } from './slot.ts';

export async function handleLease(ctx: MeteringContext, req: LeaseRequest): Promise<LeaseReply> {
  const slot = slotOf(ctx, req);
  if (!slot) return { status: 'invalid' };
  return ctx.serialize(slotTurn(slot), async () => {
    const outcome = await ctx.commits.run(() => grantNow(ctx, req, slot));
    if (outcome.status === 'exhausted' && (await reclaimFromOthers(ctx, slot, req.holder))) return ctx.commits.run(() => grantNow(ctx, req, slot));
    return outcome;
  });
}

/** Re-reads the key inside the slot's turn (it may have been revoked meanwhile), then grants, in the turn's group commit. */
function grantNow(ctx: MeteringContext, req: LeaseRequest, slot: Slot): LeaseReply {
  const key = ctx.accounts.usableKey(req.keyHash, ctx.now());
  if (!key) return { status: 'invalid' };
  const info = keyInfo(key);
  const { holder, worker, want, requestId, holding } = req;
  const result = ctx.quota.grant(slot, { holder, worker, limit: info.limit, want, requestId, holding }, ctx.now());
  return result.status === 'granted'
    ? { status: 'granted', key: info, day: slot.day, ranges: result.ranges.map(([a, b]) => [a, b]), used: result.used, held: result.held }
    : { status: 'exhausted', key: info, day: slot.day, used: result.used, limit: result.limit };
}
