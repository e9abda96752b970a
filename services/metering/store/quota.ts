// Daily quota units in metering.db: granting blocks of numbered units to lease holders, counting single
// requests for holders whose key is not at volume, and taking back the units they did not use. Each operation
// is one transaction, committed before the caller replies.
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
} from '../../shared/metering-protocol/ranges.ts';
import { createLazySync } from '../db/lazy-sync.ts';
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
  outstanding: string;
  last_request: string | null;
  last_grant: string | null;
  last_admit: string | null;
  last_admit_unit: number | null;
  last_admit_used: number | null;
}

export interface Slot {
  keyId: string;
  endpoint: MeteredEndpoint;
  day: string;
}

export type GrantResult =
  | { status: 'granted'; ranges: Range[]; used: number }
  | { status: 'exhausted'; used: number; limit: number };

export type AdmitResult =
  | { status: 'admitted'; unit: number; used: number }
  | { status: 'exhausted'; used: number; limit: number };

const HOLD_COLUMNS = 'holder, ranges, outstanding, last_request, last_grant, last_admit, last_admit_unit, last_admit_used';

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
      `SELECT ${HOLD_COLUMNS} FROM quota_holds WHERE key_id = ? AND endpoint = ? AND day = ? AND holder = ?`,
    ),
    holds: db.prepare<[string, string, string], HoldRow>(
      `SELECT ${HOLD_COLUMNS} FROM quota_holds WHERE key_id = ? AND endpoint = ? AND day = ?`,
    ),
    upsertHold: db.prepare(
      `INSERT INTO quota_holds (key_id, endpoint, day, holder, worker, ranges, outstanding, updated_at)
       VALUES (@keyId, @endpoint, @day, @holder, @worker, @ranges, @outstanding, @now)
       ON CONFLICT (key_id, endpoint, day, holder) DO UPDATE SET ranges = @ranges, outstanding = @outstanding, updated_at = @now`,
    ),
    markGrant: db.prepare(
      `UPDATE quota_holds SET last_request = @requestId, last_grant = @grant
       WHERE key_id = @keyId AND endpoint = @endpoint AND day = @day AND holder = @holder`,
    ),
    markAdmit: db.prepare(
      `INSERT INTO quota_holds (key_id, endpoint, day, holder, worker, ranges, updated_at, last_admit, last_admit_unit, last_admit_used)
       VALUES (@keyId, @endpoint, @day, @holder, @worker, '[]', @now, @requestId, @unit, @used)
       ON CONFLICT (key_id, endpoint, day, holder)
       DO UPDATE SET last_admit = @requestId, last_admit_unit = @unit, last_admit_used = @used, updated_at = @now`,
    ),
    pruneHolds: db.prepare<[string]>('DELETE FROM quota_holds WHERE day < ?'),
    pruneDays: db.prepare<[string, number]>(
      `DELETE FROM quota_days WHERE (key_id, endpoint, day) IN
         (SELECT key_id, endpoint, day FROM quota_days WHERE day < ? LIMIT ?)`,
    ),
    usageOf: db.prepare<[string, string], { endpoint: string; used: number }>(
      'SELECT endpoint, used FROM quota_days WHERE key_id = ? AND day = ?',
    ),
    leasedOf: db.prepare<[string, string], { endpoint: string; outstanding: string }>(
      "SELECT endpoint, outstanding FROM quota_holds WHERE key_id = ? AND day = ? AND outstanding != '[]'",
    ),
  };
  const lazySync = createLazySync(db);

  const readDay = (s: Slot) => {
    const row = q.day.get(s.keyId, s.endpoint, s.day);
    return row
      ? { next: row.next_unit, used: row.used, free: JSON.parse(row.free) as Range[] }
      : { next: 1, used: 0, free: [] as Range[] };
  };
  const writeDay = (s: Slot, d: { next: number; used: number; free: Range[] }) =>
    q.upsertDay.run({ ...s, next: d.next, used: d.used, free: JSON.stringify(d.free) });
  const readHold = (s: Slot, holder: string): { ranges: Range[]; outstanding: Range[] } => {
    const row = q.hold.get(s.keyId, s.endpoint, s.day, holder);
    return row
      ? { ranges: JSON.parse(row.ranges) as Range[], outstanding: JSON.parse(row.outstanding) as Range[] }
      : { ranges: [], outstanding: [] };
  };
  const writeHold = (s: Slot, holder: string, worker: string, hold: { ranges: Range[]; outstanding: Range[] }, now: number) =>
    q.upsertHold.run({
      ...s,
      holder,
      worker,
      ranges: JSON.stringify(hold.ranges),
      outstanding: JSON.stringify(hold.outstanding),
      now,
    });
  /** Units the slot can still hand out: free numbers up to the limit and the never-granted tail. */
  const allocatableOf = (d: { next: number; used: number; free: Range[] }, limit: number) => {
    // After a downgrade, numbers above the new limit stay free but are never handed out.
    const grantable = clampTo(d.free, limit);
    const tail = Math.max(0, limit - d.next + 1);
    return { grantable, allocatable: Math.max(0, Math.min(limit - d.used, countUnits(grantable) + tail)) };
  };

  const grant = db.transaction(
    (
      s: Slot,
      holder: string,
      worker: string,
      r: { limit: number; want: number; requestId: string; holding?: readonly Range[] },
      now: number,
    ): GrantResult => {
      const { limit, want } = r;
      const previous = q.hold.get(s.keyId, s.endpoint, s.day, holder);
      const d = readDay(s);
      if (previous?.last_request === r.requestId && previous.last_grant) {
        // A retry of a request whose reply was lost: the same units again (those the holder still holds).
        const again = intersect(JSON.parse(previous.last_grant) as Range[], JSON.parse(previous.ranges) as Range[]);
        if (again.length > 0) return { status: 'granted', ranges: again, used: d.used };
      }
      const { grantable, allocatable } = allocatableOf(d, limit);
      if (allocatable === 0) return { status: 'exhausted', used: d.used, limit };
      const n = blockSize(allocatable, want);
      // Returned numbers first (lowest first), so that holes close.
      const [fromFree] = takeLowest(grantable, n);
      const fresh = n - countUnits(fromFree);
      const ranges = union(fromFree, fresh > 0 ? [[d.next, d.next + fresh - 1]] : []);
      writeDay(s, { next: d.next + fresh, used: d.used + n, free: subtract(d.free, fromFree) });
      const hold = readHold(s, holder);
      const stillOut = r.holding === undefined ? hold.outstanding : intersect(hold.outstanding, normalise(r.holding));
      writeHold(s, holder, worker, { ranges: union(hold.ranges, ranges), outstanding: union(stillOut, ranges) }, now);
      q.markGrant.run({ ...s, holder, requestId: r.requestId, grant: JSON.stringify(ranges) });
      return { status: 'granted', ranges, used: d.used + n };
    },
  );

  /**
   * Counts one request: one unit, lowest returned number first, kept by nobody (it is used at once). Its
   * commit skips the fsync (lazy-sync.ts): one per request would cost a one-at-a-time client more than the rest
   * of its request.
   */
  const admitOneNow = db.transaction(
    (s: Slot, holder: string, worker: string, r: { limit: number; requestId: string; holding?: readonly Range[] }, now: number): AdmitResult => {
      const previous = q.hold.get(s.keyId, s.endpoint, s.day, holder);
      if (previous?.last_admit === r.requestId && previous.last_admit_unit !== null && previous.last_admit_used !== null) {
        // A retry of a request whose reply was lost: the same answer, counted once.
        return { status: 'admitted', unit: previous.last_admit_unit, used: previous.last_admit_used };
      }
      const d = readDay(s);
      const { grantable, allocatable } = allocatableOf(d, r.limit);
      if (allocatable === 0) return { status: 'exhausted', used: d.used, limit: r.limit };
      const lowestFree = grantable[0]?.[0];
      const unit = lowestFree ?? d.next;
      const used = d.used + 1;
      writeDay(s, {
        next: lowestFree === undefined ? d.next + 1 : d.next,
        used,
        free: lowestFree === undefined ? d.free : subtract(d.free, [[unit, unit]]),
      });
      q.markAdmit.run({ ...s, holder, worker, requestId: r.requestId, unit, used, now });
      if (r.holding !== undefined && previous && previous.outstanding !== '[]') {
        const outstanding = intersect(JSON.parse(previous.outstanding) as Range[], normalise(r.holding));
        writeHold(s, holder, worker, { ranges: JSON.parse(previous.ranges) as Range[], outstanding }, now);
      }
      return { status: 'admitted', unit, used };
    },
  );

  /**
   * Takes back `ranges` from `holder`. `drained`: the holder gives back all it had left, so every other unit
   * it was granted has served a request and is no longer outstanding.
   */
  const release = db.transaction((s: Slot, holder: string, ranges: readonly Range[], now: number, drained = false): number => {
    const hold = readHold(s, holder);
    // Only numbers this holder really holds come back: a repeated or stray release cannot free a unit twice.
    const back = intersect(normalise(ranges), hold.ranges);
    const n = countUnits(back);
    if (n === 0 && (!drained || hold.outstanding.length === 0)) return 0;
    if (n > 0) {
      const d = readDay(s);
      writeDay(s, { next: d.next, used: d.used - n, free: union(d.free, back) });
    }
    const outstanding = drained ? [] : subtract(hold.outstanding, back);
    writeHold(s, holder, '', { ranges: subtract(hold.ranges, back), outstanding }, now);
    return n;
  });

  return {
    grant,
    release,
    admitOne: (
      s: Slot,
      holder: string,
      worker: string,
      r: { limit: number; requestId: string; holding?: readonly Range[] },
      now: number,
    ): AdmitResult =>
      lazySync.run(() => admitOneNow(s, holder, worker, r, now)),
    /** Syncs the commits made without fsync (at shutdown). */
    sync: (): void => lazySync.flush(),
    /** Holders other than `except` that may still hold unused numbers of this slot. */
    otherHolders(s: Slot, except: string): string[] {
      return q
        .holds.all(s.keyId, s.endpoint, s.day)
        .filter((h) => h.holder !== except && h.outstanding !== '[]')
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
    /**
     * Per endpoint on one day: units used (granted or counted, minus returned), and of those the units leased
     * in blocks that their holders have not yet shown to be used.
     */
    usage(keyId: string, day: string): Map<string, { used: number; leased: number }> {
      const leased = new Map<string, number>();
      for (const r of q.leasedOf.all(keyId, day)) {
        leased.set(r.endpoint, (leased.get(r.endpoint) ?? 0) + countUnits(JSON.parse(r.outstanding) as Range[]));
      }
      return new Map(q.usageOf.all(keyId, day).map((r) => [r.endpoint, { used: r.used, leased: leased.get(r.endpoint) ?? 0 }]));
    },
  };
}

export type Quota = ReturnType<typeof createQuota>;
