// dict.metering.v1.release: a holder hands back numbered units it will not use (idle, day end, shutdown).
import type { ReleaseRequest } from '../../shared/metering-protocol/protocol.ts';
import { shardOf } from '../../shared/metering-protocol/subjects.ts';
import type { MeteringContext } from '../context.ts';
import { slotTurn } from './slot.ts';

export function handleRelease(ctx: MeteringContext, req: ReleaseRequest): Promise<{ returned: number }> {
  const slot = { keyId: req.keyId, endpoint: req.endpoint, day: req.day };
  // In the slot's turn, so that a grant in progress never sees half of a release.
  const { quota, commits } = ctx.shards[shardOf(req.keyHash)];
  return ctx.serialize(slotTurn(slot), async () => ({
    returned: await commits.run(() => quota.release(slot, req.holder, req.ranges, ctx.now(), req.drained)),
  }));
}
