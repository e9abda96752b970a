// ops usage <email> [--date YYYY-MM-DD]: per key and endpoint, units counted on one UTC day, the part of them
// still leased to workers, and the key's own limit.
import { utcDay } from '../../../shared/metering-protocol/day.ts';
import type { UsageRow } from '../../../shared/metering-protocol/ops-protocol.ts';
import { DAILY_LIMITS } from '../../../shared/plans.ts';
import { shardOf } from '../../../shared/metering-protocol/subjects.ts';
import type { MeteringContext } from '../../context.ts';
import { findDeveloper } from './rows.ts';

export function handleUsage(ctx: MeteringContext, req: { email: string; date?: string }) {
  const developer = findDeveloper(ctx, req.email);
  const date = req.date ?? utcDay(ctx.now());
  const rows: UsageRow[] = [];
  for (const key of ctx.accounts.keysOf(developer.id)) {
    for (const [endpoint, u] of ctx.shards[shardOf(key.key_hash)].quota.usage(key.id, date)) {
      // Plans belong to keys: a free key of a developer whose older keys were raised still has the free limit.
      rows.push({ keyPrefix: key.prefix, keyName: key.name, endpoint, ...u, limit: DAILY_LIMITS[key.plan] });
    }
  }
  return { email: developer.email, date, plan: developer.plan, rows };
}
