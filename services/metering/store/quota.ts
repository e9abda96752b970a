// Daily quota units in metering.db: granting blocks of numbered units to lease holders (a worker, for a key at
// volume there, or a host, for its workers' shared allowance) and taking back the units they did not use.
// Each operation is one transaction, committed before the caller replies.
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
}

export interface Slot {
  keyId: string;
  endpoint: MeteredEndpoint;
  day: string;
}

/** One day of a slot: the lowest number never granted, units counted (granted minus returned), returned numbers. */
interface Day {
  next: number;
  used: number;
  free: Range[];
}

/** A holder's units of a slot: granted and not returned, and of those the ones it may not have used yet. */
interface Hold {
  ranges: Range[];
  outstanding: Range[];
}

export interface GrantRequest {
  holder: string;
  worker: string;
  limit: number;
  want: number;
  requestId: string;
  /** The units the holder still holds unused (absent: not known). */
  holding?: readonly Range[];
}

export type GrantResult =
  /** `held`: the holder's units not returned, served ones included. */
  | { status: 'granted'; ranges: Range[]; used: number; held: number }
  | { status: 'exhausted'; used: number; limit: number };

const HOLD_COLUMNS = 'holder, ranges, outstanding, last_request, last_grant';

function statements(db: Db) {
  return {
    day: db.prepare<[string, string, string], DayRow>('SELECT next_unit, used, free FROM quota_days WHERE key_id = ? AND endpoint = ? AND day = ?'),
    upsertDay: db.prepare(
      `INSERT INTO quota_days (key_id, endpoint, day, next_unit, used, free)
       VALUES (@keyId, @endpoint, @day, @next, @used, @free)
       ON CONFLICT (key_id, endpoint, day) DO UPDATE SET next_unit = @next, used = @used, free = @free`,
    ),
    hold: db.prepare<[string, string, string, string], HoldRow>(
      `SELECT ${HOLD_COLUMNS} FROM quota_holds WHERE key_id = ? AND endpoint = ? AND day = ? AND holder = ?`,
    ),
    holds: db.prepare<[string, string, string], HoldRow>(`SELECT ${HOLD_COLUMNS} FROM quota_holds WHERE key_id = ? AND endpoint = ? AND day = ?`),
    upsertHold: db.prepare(
      `INSERT INTO quota_holds (key_id, endpoint, day, holder, worker, ranges, outstanding, updated_at)
       VALUES (@keyId, @endpoint, @day, @holder, @worker, @ranges, @outstanding, @now)
       ON CONFLICT (key_id, endpoint, day, holder) DO UPDATE SET ranges = @ranges, outstanding = @outstanding, updated_at = @now`,
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
    usageOf: db.prepare<[string, string], { endpoint: string; used: number }>('SELECT endpoint, used FROM quota_days WHERE key_id = ? AND day = ?'),
    leasedOf: db.prepare<[string, string], { endpoint: string; outstanding: string }>(
      "SELECT endpoint, outstanding FROM quota_holds WHERE key_id = ? AND day = ? AND outstanding != '[]'",
    ),
  };
}

export class QuotaStore {
  readonly #q: ReturnType<typeof statements>;
  /**
   * Grants a block to a holder (see grantNow), in one transaction: IMMEDIATE on its own (the write lock first,
   * so that metering processes sharing metering.db never both read a slot before either writes it), or a
   * savepoint inside a group commit's transaction (db/group-commit.ts).
   */
  readonly grant: (s: Slot, r: GrantRequest, now: number) => GrantResult;
  /** Takes back units from a holder (see releaseNow), in one transaction as grant: how many came back. */
  readonly release: (s: Slot, holder: string, ranges: readonly Range[], now: number, drained?: boolean) => number;

  constructor(db: Db) {
    this.#q = statements(db);
    const grant = db.transaction((s: Slot, r: GrantRequest, now: number) => this.#grantNow(s, r, now));
    const release = db.transaction((s: Slot, holder: string, ranges: readonly Range[], now: number, drained: boolean) =>
      this.#releaseNow(s, holder, ranges, now, drained),
    );
    this.grant = (s, r, now) => (db.inTransaction ? grant(s, r, now) : grant.immediate(s, r, now));
    this.release = (s, holder, ranges, now, drained = false) =>
      db.inTransaction ? release(s, holder, ranges, now, drained) : release.immediate(s, holder, ranges, now, drained);
  }

  /** Holders other than `except` that may still hold unused numbers of this slot. */
  otherHolders(s: Slot, except: string): string[] {
    return this.#q.holds
      .all(s.keyId, s.endpoint, s.day)
      .filter((h) => h.holder !== except && h.outstanding !== '[]')
      .map((h) => h.holder);
  }

  /** Drops lease records of days before `day` (they only served releases of those days). */
  pruneHolds(day: string): void {
    this.#q.pruneHolds.run(day);
  }

  /** Deletes up to `limit` daily usage rows of days before `day`; returns how many. */
  pruneDays(day: string, limit: number): number {
    return this.#q.pruneDays.run(day, limit).changes;
  }

  /**
   * Per endpoint on one day: units used (granted minus returned), and of those the units leased in blocks that
   * their holders have not yet shown to be used.
   */
  usage(keyId: string, day: string): Map<string, { used: number; leased: number }> {
    const leased = new Map<string, number>();
    for (const r of this.#q.leasedOf.all(keyId, day)) {
      leased.set(r.endpoint, (leased.get(r.endpoint) ?? 0) + countUnits(JSON.parse(r.outstanding) as Range[]));
    }
    return new Map(this.#q.usageOf.all(keyId, day).map((r) => [r.endpoint, { used: r.used, leased: leased.get(r.endpoint) ?? 0 }]));
  }

  /**
   * A block for a holder: returned numbers first (lowest first, so that holes close), then never-granted ones.
   * A retry of a request whose reply was lost gets the same units again (those the holder still holds).
   */
  #grantNow(s: Slot, r: GrantRequest, now: number): GrantResult {
    const previous = this.#q.hold.get(s.keyId, s.endpoint, s.day, r.holder);
    const d = this.#readDay(s);
    if (previous?.last_request === r.requestId && previous.last_grant) {
      const again = intersect(JSON.parse(previous.last_grant) as Range[], JSON.parse(previous.ranges) as Range[]);
      if (again.length > 0) return { status: 'granted', ranges: again, used: d.used, held: countUnits(JSON.parse(previous.ranges) as Range[]) };
    }
    const { grantable, allocatable } = allocatableOf(d, r.limit);
    if (allocatable === 0) return { status: 'exhausted', used: d.used, limit: r.limit };
    const n = blockSize(allocatable, r.want);
    const [fromFree] = takeLowest(grantable, n);
    const fresh = n - countUnits(fromFree);
    const ranges = union(fromFree, fresh > 0 ? [[d.next, d.next + fresh - 1]] : []);
    this.#writeDay(s, { next: d.next + fresh, used: d.used + n, free: subtract(d.free, fromFree) });
    const hold = this.#readHold(s, r.holder);
    // What the holder says it still holds unused: the rest of its earlier grants served requests.
    const stillOut = r.holding === undefined ? hold.outstanding : intersect(hold.outstanding, normalise(r.holding));
    const held = union(hold.ranges, ranges);
    this.#writeHold(s, r.holder, r.worker, { ranges: held, outstanding: union(stillOut, ranges) }, now);
    this.#q.markGrant.run({ ...s, holder: r.holder, requestId: r.requestId, grant: JSON.stringify(ranges) });
    return { status: 'granted', ranges, used: d.used + n, held: countUnits(held) };
  }

  /**
   * Takes back `ranges` from `holder`. Only numbers it really holds come back, so a repeated or stray release
   * cannot free a unit twice. `drained`: the holder gives back all it had left, so every other unit it was
   * granted has served a request and is no longer outstanding (the units stay the holder's: a drain can cross
   * a grant the holder has just received, whose units must still come back if unused).
   */
  #releaseNow(s: Slot, holder: string, ranges: readonly Range[], now: number, drained: boolean): number {
    const hold = this.#readHold(s, holder);
    const back = intersect(normalise(ranges), hold.ranges);
    const n = countUnits(back);
    if (n === 0 && (!drained || hold.outstanding.length === 0)) return 0;
    if (n > 0) {
      const d = this.#readDay(s);
      this.#writeDay(s, { next: d.next, used: d.used - n, free: union(d.free, back) });
    }
    const outstanding = drained ? [] : subtract(hold.outstanding, back);
    this.#writeHold(s, holder, '', { ranges: subtract(hold.ranges, back), outstanding }, now);
    return n;
  }

  #readDay(s: Slot): Day {
    const row = this.#q.day.get(s.keyId, s.endpoint, s.day);
    return row ? { next: row.next_unit, used: row.used, free: JSON.parse(row.free) as Range[] } : { next: 1, used: 0, free: [] };
  }

  #writeDay(s: Slot, d: Day): void {
    this.#q.upsertDay.run({ ...s, next: d.next, used: d.used, free: JSON.stringify(d.free) });
  }

  #readHold(s: Slot, holder: string): Hold {
    const row = this.#q.hold.get(s.keyId, s.endpoint, s.day, holder);
    return row ? { ranges: JSON.parse(row.ranges) as Range[], outstanding: JSON.parse(row.outstanding) as Range[] } : { ranges: [], outstanding: [] };
  }

  #writeHold(s: Slot, holder: string, worker: string, hold: Hold, now: number): void {
    this.#q.upsertHold.run({ ...s, holder, worker, ranges: JSON.stringify(hold.ranges), outstanding: JSON.stringify(hold.outstanding), now });
  }
}

/** Units the slot can still hand out: free numbers up to the limit and the never-granted tail. */
function allocatableOf(d: Day, limit: number): { grantable: Range[]; allocatable: number } {
  // After a downgrade, numbers above the new limit stay free but are never handed out.
  const grantable = clampTo(d.free, limit);
  const tail = Math.max(0, limit - d.next + 1);
  return { grantable, allocatable: Math.max(0, Math.min(limit - d.used, countUnits(grantable) + tail)) };
}
