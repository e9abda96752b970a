// Daily quota units in metering.db: granting blocks of numbered units to lease holders and taking back the
// ones they did not use. Each operation is one transaction, committed before the caller replies.
import type { MeteredEndpoint } from '../../shared/plans.ts';
import {
  clampTo,
  countUnits,
  intersect,
  normalise,
  subtract,
  takeLowest,
  union,
  type Range,
} from '../../shared/metering/ranges.ts';
import type { Db } from '../db/open.ts';
import { blockSize } from './block-size.ts';

interface DayRow {
  next_unit: number;
  used: number;
  free: string;
}

interface HoldRow {
  holder: string;
  ranges: string;
  last_request: string | null;
  last_grant: string | null;
}

export interface Slot {
  keyId: string;
  endpoint: MeteredEndpoint;
  day: string;
}

export type GrantResult =
  | { status: 'granted'; ranges: Range[] }
  | { status: 'exhausted'; used: number; limit: number };

export function createQuota(db: Db) {
  const q = {
    day: db.prepare<[string, string, string], DayRow>(
      'SELECT next_unit, used, free FROM quota_days WHERE key_id = ? AND endpoint = ? AND day = ?',
    ),
    upsertDay: db.prepare(
      `INSERT INTO quota_days (key_id, endpoint, day, next_unit, used, free)
       VALUES (@keyId, @endpoint, @day, @next, @used, @free)
       ON CONFLICT (key_id, endpoint, day) DO UPDATE SET next_unit = @next, used = @used, free = @free`,
    ),
    hold: db.prepare<[string, string, string, string], HoldRow>(
      `SELECT holder, ranges, last_request, last_grant FROM quota_holds
       WHERE key_id = ? AND endpoint = ? AND day = ? AND holder = ?`,
    ),
    holds: db.prepare<[string, string, string], HoldRow>(
      'SELECT holder, ranges, last_request, last_grant FROM quota_holds WHERE key_id = ? AND endpoint = ? AND day = ?',
    ),
    upsertHold: db.prepare(
      `INSERT INTO quota_holds (key_id, endpoint, day, holder, worker, ranges, updated_at)
       VALUES (@keyId, @endpoint, @day, @holder, @worker, @ranges, @now)
       ON CONFLICT (key_id, endpoint, day, holder) DO UPDATE SET ranges = @ranges, updated_at = @now`,
    ),
    markGrant: db.prepare(
      `UPDATE quota_holds SET last_request = @requestId, last_grant = @grant
       WHERE key_id = @keyId AND endpoint = @endpoint AND day = @day AND holder = @holder`,
    ),
    pruneHolds: db.prepare<[string]>('DELETE FROM quota_holds WHERE day < ?'),
    pruneDays: db.prepare<[string, number]>(
      `DELETE FROM quota_days WHERE (key_id, endpoint, day) IN
         (SELECT key_id, endpoint, day FROM quota_days WHERE day < ? LIMIT ?)`,
    ),
    usageOf: db.prepare<[string, string], { endpoint: string; used: number }>(
      'SELECT endpoint, used FROM quota_days WHERE key_id = ? AND day = ?',
    ),
  };

  const readDay = (s: Slot) => {
    const row = q.day.get(s.keyId, s.endpoint, s.day);
    return row
      ? { next: row.next_unit, used: row.used, free: JSON.parse(row.free) as Range[] }
      : { next: 1, used: 0, free: [] as Range[] };
  };
  const writeDay = (s: Slot, d: { next: number; used: number; free: Range[] }) =>
    q.upsertDay.run({ ...s, next: d.next, used: d.used, free: JSON.stringify(d.free) });
  const readHold = (s: Slot, holder: string): Range[] => {
    const row = q.hold.get(s.keyId, s.endpoint, s.day, holder);
    return row ? (JSON.parse(row.ranges) as Range[]) : [];
  };

  const grant = db.transaction(
    (s: Slot, holder: string, worker: string, r: { limit: number; want: number; requestId: string }, now: number): GrantResult => {
      const { limit, want } = r;
      const previous = q.hold.get(s.keyId, s.endpoint, s.day, holder);
      if (previous?.last_request === r.requestId && previous.last_grant) {
        // A retry of a request whose reply was lost: the same units again (those the holder still holds).
        const again = intersect(JSON.parse(previous.last_grant) as Range[], JSON.parse(previous.ranges) as Range[]);
        if (again.length > 0) return { status: 'granted', ranges: again };
      }
      const d = readDay(s);
      // After a downgrade, numbers above the new limit stay free but are never handed out.
      const grantable = clampTo(d.free, limit);
      const tail = Math.max(0, limit - d.next + 1);
      const allocatable = Math.max(0, Math.min(limit - d.used, countUnits(grantable) + tail));
      if (allocatable === 0) return { status: 'exhausted', used: d.used, limit };
      const n = blockSize(allocatable, want);
      // Returned numbers first (lowest first), so that holes close and Used stays close to the count.
      const [fromFree] = takeLowest(grantable, n);
      const fresh = n - countUnits(fromFree);
      const ranges = union(fromFree, fresh > 0 ? [[d.next, d.next + fresh - 1]] : []);
      writeDay(s, { next: d.next + fresh, used: d.used + n, free: subtract(d.free, fromFree) });
      q.upsertHold.run({ ...s, holder, worker, ranges: JSON.stringify(union(readHold(s, holder), ranges)), now });
      q.markGrant.run({ ...s, holder, requestId: r.requestId, grant: JSON.stringify(ranges) });
      return { status: 'granted', ranges };
    },
  );

  const release = db.transaction((s: Slot, holder: string, ranges: readonly Range[], now: number): number => {
    const held = readHold(s, holder);
    // Only numbers this holder really holds come back: a repeated or stray release cannot free a unit twice.
    const back = intersect(normalise(ranges), held);
    const n = countUnits(back);
    if (n === 0) return 0;
    const d = readDay(s);
    writeDay(s, { next: d.next, used: d.used - n, free: union(d.free, back) });
    q.upsertHold.run({ ...s, holder, worker: '', ranges: JSON.stringify(subtract(held, back)), now });
    return n;
  });

  return {
    grant,
    release,
    /** Holders other than `except` that still hold numbers of this slot. */
    otherHolders(s: Slot, except: string): string[] {
      return q
        .holds.all(s.keyId, s.endpoint, s.day)
        .filter((h) => h.holder !== except && h.ranges !== '[]')
        .map((h) => h.holder);
    },
    /** Drops lease records of days before `day` (they only served releases of those days). */
    pruneHolds(day: string): void {
      q.pruneHolds.run(day);
    },
    /** Deletes up to `limit` daily usage rows of days before `day`; returns how many. */
    pruneDays(day: string, limit: number): number {
      return q.pruneDays.run(day, limit).changes;
    },
    /** Per endpoint, units used (granted - returned) on one day. */
    usage(keyId: string, day: string): Map<string, { used: number }> {
      return new Map(q.usageOf.all(keyId, day).map((r) => [r.endpoint, { used: r.used }]));
    },
  };
}

export type Quota = ReturnType<typeof createQuota>;
