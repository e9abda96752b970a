// dict.metering.v1.ping: liveness and whether metering.db takes commits, for the workers' /healthz.
import { METERING_SERVICE_VERSION } from '../../shared/metering-protocol/subjects.ts';
import type { MeteringContext } from '../context.ts';

export function handlePing(ctx: MeteringContext) {
  return { ok: true as const, version: METERING_SERVICE_VERSION, now: ctx.now(), storage: ctx.storage.status() };
}
