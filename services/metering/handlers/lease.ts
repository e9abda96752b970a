// dict.metering.v1.lease: authenticates a key by its hash and grants a block of numbered daily units for
// one endpoint, reclaiming idle units from other holders when nothing else is left.
import type { LeaseReply, LeaseRequest } from '../../shared/metering-protocol/protocol.ts';
import { shardOf } from '../../shared/metering-protocol/subjects.ts';
import type { MeteringContext, Shard } from '../context.ts';
import type { Slot } from '../store/quota.ts';
import { keyInfo, reclaimFromOthers, slotOf, slotTurn } from './slot.ts';

export async function handleLease(ctx: MeteringContext, req: LeaseRequest): Promise<LeaseReply> {
  let slot = slotOf(ctx, req);
  // Replicated: the key may have been registered through another host a moment ago (its copy not yet here).
  if (!slot && ctx.accountsCaughtUp !== undefined) {
    // A stream electing its leader cannot be read: the key is then answered from this copy as it is.
    await ctx.accountsCaughtUp().catch(() => undefined);
    slot = slotOf(ctx, req);
  }
  if (!slot) return { status: 'invalid' };
  const shard = ctx.shards[shardOf(req.keyHash)];
  return ctx.serialize(slotTurn(slot), async () => {
    const outcome = await shard.commits.run(() => grantNow(ctx, shard, req, slot));
    if (outcome.status === 'exhausted' && (await reclaimFromOthers(ctx, shard, slot, req.holder))) {
      return shard.commits.run(() => grantNow(ctx, shard, req, slot));
    }
    return outcome;
  });
}

/** Re-reads the key inside the slot's turn (it may have been revoked meanwhile), then grants, in the turn's group commit. */
function grantNow(ctx: MeteringContext, shard: Shard, req: LeaseRequest, slot: Slot): LeaseReply {
  const key = ctx.accounts.usableKey(req.keyHash, ctx.now());
  if (!key) return { status: 'invalid' };
  const info = keyInfo(key);
  const { holder, worker, want, requestId, holding } = req;
  const result = shard.quota.grant(slot, { holder, worker, limit: info.limit, want, requestId, holding }, ctx.now());
  return result.status === 'granted'
    ? { status: 'granted', key: info, day: slot.day, ranges: result.ranges.map(([a, b]) => [a, b]), used: result.used, held: result.held }
    : { status: 'exhausted', key: info, day: slot.day, used: result.used, limit: result.limit };
}
