// dict.metering.v1.admit: authenticates a key by its hash and counts one request for one endpoint (a worker
// asks so for a key that is not at volume there): X-RateLimit-Used is then the slot's exact count.
import type { AdmitReply, AdmitRequest } from '../../shared/metering-protocol/protocol.ts';
import type { MeteringContext } from '../context.ts';
import type { Slot } from '../store/quota.ts';
import { keyInfo, reclaimFromOthers, slotOf, slotTurn } from './slot.ts';

export async function handleAdmit(ctx: MeteringContext, req: AdmitRequest): Promise<AdmitReply> {
  const slot = slotOf(ctx, req);
  if (!slot) return { status: 'invalid' };
  return ctx.serialize(slotTurn(slot), async () => {
    const outcome = admitNow(ctx, req, slot);
    if (outcome.status === 'exhausted' && (await reclaimFromOthers(ctx, slot, req.holder))) return admitNow(ctx, req, slot);
    return outcome;
  });
}

/** Re-reads the key inside the slot's turn (it may have been revoked meanwhile), then counts synchronously. */
function admitNow(ctx: MeteringContext, req: AdmitRequest, slot: Slot): AdmitReply {
  const key = ctx.accounts.usableKey(req.keyHash, ctx.now());
  if (!key) return { status: 'invalid' };
  const info = keyInfo(key);
  const result = ctx.quota.admitOne(slot, req.holder, req.worker, { limit: info.limit, requestId: req.requestId, holding: req.holding }, ctx.now());
  return result.status === 'admitted'
    ? { status: 'admitted', key: info, day: slot.day, unit: result.unit, used: result.used }
    : { status: 'exhausted', key: info, day: slot.day, used: result.used, limit: result.limit };
}
