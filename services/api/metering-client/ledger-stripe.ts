// One stripe of the host's ledger: an LMDB environment holding, per key, endpoint and UTC day, the units the
// host was leased and the count X-RateLimit-Used reports, with the keys' info. Each operation is one LMDB write
// transaction, and so is each batch of takes (host-ledger.ts says why there are several stripes).
import { randomBytes } from 'node:crypto';

import type { Database } from 'lmdb';

import { MeteringStorageError } from '../../shared/domain-errors.ts';

import type { KeyInfo } from '../../shared/metering-protocol/protocol.ts';
import { countUnits, normalise, type Range } from '../../shared/metering-protocol/ranges.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';

/**
 * A slot record: numbers at fixed places, then the held ranges as [from, to] pairs. X-RateLimit-Used is
 * OTHERS + TAKEN: the units metering counts for other holders (at the host's last grant) plus the units the host
 * served. While no other holder has any, it is exact whatever order the host's grants arrive in.
 */
const OTHERS = 0;
const TAKEN = 1;
const GRANTED = 2;
const ASKING_UNTIL = 3;
const EXHAUSTED_UNTIL = 4;
const EXHAUSTED_USED = 5;
const UNREPORTED = 6;
const RANGES = 7;

export interface HostTake {
  /** The unit taken, or undefined when the host holds none for the slot. */
  unit?: number;
  /** X-RateLimit-Used of that unit: other holders' count at the host's last grant, plus the units the host served. */
  used: number;
  /** The host should ask for its next block now (this worker is the one to ask: no other is asking). */
  askAhead: boolean;
  /** Metering said the day is used up: refuse until then, reporting `exhaustedUsed`. */
  exhaustedUntil: number;
  exhaustedUsed: number;
}

/** A slot to take a unit of. */
export interface TakeSlot {
  hash: string;
  endpoint: MeteredEndpoint;
  day: string;
}

/** Units that leave the ledger for metering (a drain), with the slot they belong to. */
export interface Drained {
  keyHash: string;
  keyId: string;
  endpoint: MeteredEndpoint;
  day: string;
  ranges: Range[];
  /** The service may still count units of the last grant as leased here: say the host used them. */
  unreported: boolean;
}

const slotKey = (hash: string, endpoint: string, day: string) => `s|${hash}|${endpoint}|${day}`;
/**
 * The id of the host's request for units of a slot that is out or was lost (every worker asks with it), until
 * a grant answering it joins the ledger.
 */
const pendingKey = (hash: string, endpoint: string, day: string) => `r|${hash}|${endpoint}|${day}`;
const infoKey = (hash: string) => `k|${hash}`;
const idKey = (keyId: string) => `i|${keyId}`;

/**
 * One stripe of the ledger, an LMDB environment of its own: LMDB has one write lock per environment, and the
 * host's workers take units of different keys at once; in one environment each would wait for the other's
 * transaction (and, on a busy machine, for the other to be scheduled again while it holds the lock).
 */
export class LedgerStripe {
  readonly #db: Database<Buffer, string>;
  readonly #storage: LedgerStorage;

  constructor(db: Database<Buffer, string>, storage: LedgerStorage) {
    this.#db = db;
    this.#storage = storage;
  }

  /**
   * One write transaction. A disk that takes no more pages fails the request closed, as metering's own full
   * disk does (internal_error, no log line per request): the worker says so once per change of state.
   */
  #transaction<T>(action: () => T): T {
    let result: T;
    try {
      result = this.#db.transactionSync(action);
    } catch (error) {
      if (!isStorageFault(error)) throw error;
      this.#storage.failed(error);
      throw new MeteringStorageError(`host allowance cannot commit: ${(error as Error).message}`, { cause: error });
    }
    this.#storage.committed();
    return result;
  }

  /** The host's id, made by the first worker that opens the ledger. */
  hostId(): string {
    return this.#transaction(() => {
      const held = this.#db.getBinary('host-id');
      if (held) return held.toString('utf8');
      const id = `host-${randomBytes(8).toString('hex')}`;
      this.#db.putSync('host-id', Buffer.from(id));
      return id;
    });
  }

  /** The ledger's stripe count, kept in its first stripe: `proposed` if none is kept yet. */
  stripes(proposed: number): number {
    return this.#transaction(() => {
      const held = this.#db.getBinary('stripes');
      if (held) return Number(held.toString('utf8'));
      this.#db.putSync('stripes', Buffer.from(String(proposed)));
      return proposed;
    });
  }

  /** The key as the host last learned it from metering. */
  info(hash: string): KeyInfo | undefined {
    const raw = this.#db.getBinary(infoKey(hash));
    return raw === undefined ? undefined : (JSON.parse(raw.toString('utf8')) as KeyInfo);
  }

  hashOf(keyId: string): string | undefined {
    return this.#db.getBinary(idKey(keyId))?.toString('utf8');
  }

  /** Takes the lowest unit the host holds for the slot; asks ahead once fewer than `askBelowShare` of the last grant are left. */
  take(hash: string, endpoint: MeteredEndpoint, day: string, now: number, askBelowShare: number, askForMs: number): HostTake {
    return this.#transaction(() => this.#take(slotKey(hash, endpoint, day), now, askBelowShare, askForMs));
  }

  /**
   * The takes of `wanted` (indices into `slots`), in order, in one write transaction: a commit costs several
   * times what one take in it does (LMDB writes the dirty pages and the meta page), so the admissions of one
   * event-loop turn share it. Results go to `out` at the same indices.
   */
  takeAll(slots: readonly TakeSlot[], wanted: readonly number[], out: (HostTake | Error)[], now: number, askBelowShare: number, askForMs: number): void {
    this.#transaction(() => {
      for (const i of wanted) {
        const { hash, endpoint, day } = slots[i];
        out[i] = this.#take(slotKey(hash, endpoint, day), now, askBelowShare, askForMs);
      }
    });
  }

  /** Inside a write transaction: one take (see take). */
  #take(key: string, now: number, askBelowShare: number, askForMs: number): HostTake {
    const rec = this.#read(key);
    if (rec === undefined) return { used: 0, askAhead: false, exhaustedUntil: 0, exhaustedUsed: 0 };
    const out: HostTake = { used: 0, askAhead: false, exhaustedUntil: rec[EXHAUSTED_UNTIL], exhaustedUsed: rec[EXHAUSTED_USED] };
    if (rec.length === RANGES) return out;
    const unit = rec[RANGES];
    let next = rec;
    if (unit === rec[RANGES + 1]) {
      next = new Float64Array(rec.length - 2);
      next.set(rec.subarray(0, RANGES));
      next.set(rec.subarray(RANGES + 2), RANGES);
    } else rec[RANGES] = unit + 1;
    next[TAKEN] += 1;
    const held = heldIn(next);
    if (held < Math.ceil(next[GRANTED] * askBelowShare) && next[ASKING_UNTIL] <= now) {
      next[ASKING_UNTIL] = now + askForMs;
      out.askAhead = true;
    }
    this.#write(key, next);
    out.unit = unit;
    out.used = next[OTHERS] + next[TAKEN];
    return out;
  }

  /**
   * A grant to the host: its units join the slot, if it answers the slot's pending request (pendingRequest),
   * which it retires in the same transaction. `used - held` (the slot's count less what metering counts as the
   * host's: granted, not returned) is what the other holders account for.
   */
  grant(hash: string, endpoint: MeteredEndpoint, day: string, info: KeyInfo, grant: { requestId: string; ranges: readonly Range[]; others: number }): void {
    const { ranges, others } = grant;
    this.#transaction(() => {
      // Workers of the host ask with one request id, and metering answers each repeat of it with the same
      // units: they must join the ledger once. A reply for an id that is no longer pending was applied
      // already, however many grants joined since: a worker slow to read its reply would otherwise hand out
      // again units the host's workers took meanwhile, or units metering has since reclaimed and granted to
      // another holder.
      if (!this.#retire(hash, endpoint, day, grant.requestId)) return;
      const key = slotKey(hash, endpoint, day);
      const rec = this.#read(key) ?? fresh();
      const merged = normalise([...rangesOf(rec), ...ranges]);
      const next = new Float64Array(RANGES + 2 * merged.length);
      next[OTHERS] = others;
      next[TAKEN] = rec[TAKEN];
      next[GRANTED] = countUnits(ranges);
      next[UNREPORTED] = 1;
      merged.forEach(([from, to], i) => next.set([from, to], RANGES + 2 * i));
      this.#write(key, next);
      this.#remember(hash, info);
    });
  }

  /** Metering says the slot is used up: every worker refuses it locally until `until`. */
  exhausted(hash: string, endpoint: MeteredEndpoint, day: string, info: KeyInfo, used: number, until: number): void {
    this.#transaction(() => {
      const key = slotKey(hash, endpoint, day);
      const rec = this.#read(key) ?? fresh();
      rec[EXHAUSTED_UNTIL] = until;
      rec[EXHAUSTED_USED] = used;
      rec[ASKING_UNTIL] = 0;
      this.#write(key, rec);
      this.#remember(hash, info);
    });
  }

  /** An ask that failed: the next admission may ask again at once. */
  askFailed(hash: string, endpoint: MeteredEndpoint, day: string): void {
    this.#transaction(() => {
      const key = slotKey(hash, endpoint, day);
      const rec = this.#read(key);
      if (rec === undefined) return;
      rec[ASKING_UNTIL] = 0;
      this.#write(key, rec);
    });
  }

  /** The units the host holds unused for the slot, left in place. */
  holding(hash: string, endpoint: MeteredEndpoint, day: string): Range[] {
    const rec = this.#read(slotKey(hash, endpoint, day));
    return rec === undefined ? [] : rangesOf(rec);
  }

  /**
   * Removes and returns the slot's unused units (metering reclaims them for another holder). The count stays:
   * metering still counts the units the host served as the host's.
   */
  drain(hash: string, endpoint: MeteredEndpoint, day: string): Range[] {
    return this.#transaction(() => {
      const key = slotKey(hash, endpoint, day);
      const rec = this.#read(key);
      if (rec === undefined) return [];
      this.#write(key, emptied(rec));
      return rangesOf(rec);
    });
  }

  /**
   * Forgets a key (revoked, suspended, plan or expiry changed): its info goes (the next request asks metering,
   * which checks the key again) and its units are handed back; its slots keep their counts for the day.
   */
  forget(hash: string): Drained[] {
    return this.#transaction(() => {
      const drained = this.#drainSlots(`s|${hash}|`, `s|${hash}}`);
      const info = this.info(hash);
      if (info !== undefined) this.#db.removeSync(idKey(info.id));
      this.#db.removeSync(infoKey(hash));
      return drained;
    });
  }

  /** Removes the slots of days other than `today`: their units go back. */
  sweepDays(today: string): Drained[] {
    return this.#transaction(() => {
      const drained = this.#drainSlots('s|', 's}', (day) => day !== today);
      for (const key of Array.from(this.#db.getKeys({ start: 's|', end: 's}' }))) if (!key.endsWith(today)) this.#db.removeSync(key);
      for (const key of Array.from(this.#db.getKeys({ start: 'r|', end: 'r}' }))) if (!key.endsWith(today)) this.#db.removeSync(key);
      return drained;
    });
  }

  /** Forgets every key (broadcasts may have been missed): their units go back. Counts and the host id stay. */
  clear(): Drained[] {
    return this.#transaction(() => {
      const drained = this.#drainSlots('s|', 's}');
      for (const [start, end] of [['k|', 'k}'], ['i|', 'i}']]) {
        for (const key of Array.from(this.#db.getKeys({ start, end }))) this.#db.removeSync(key);
      }
      return drained;
    });
  }

  /**
   * The id of the host's request for units of the slot: the one out or lost, else a new one. Every worker of
   * the host asks with it, so that a grant metering committed for a request whose reply was lost (metering
   * killed or frozen) comes back to whichever worker asks next. Only the grant that joins the ledger retires
   * it (grant): an id answered `exhausted` may be asked with again, which metering answers afresh.
   */
  pendingRequest(hash: string, endpoint: MeteredEndpoint, day: string): string {
    return this.#transaction(() => {
      const key = pendingKey(hash, endpoint, day);
      const held = this.#db.getBinary(key);
      if (held) return held.toString('utf8');
      const id = randomBytes(8).toString('hex');
      this.#db.putSync(key, Buffer.from(id));
      return id;
    });
  }

  /**
   * A grant to the host that will not join the ledger (a key change crossed it, so its units go back): true
   * when it answers the slot's pending request, which it retires, so that no other worker applies a repeat of
   * it; false when another worker has applied or given back an answer to it already.
   */
  discard(hash: string, endpoint: MeteredEndpoint, day: string, requestId: string): boolean {
    return this.#transaction(() => this.#retire(hash, endpoint, day, requestId));
  }

  /** Inside a write transaction: retires the slot's pending request if it is `requestId` (see grant). */
  #retire(hash: string, endpoint: MeteredEndpoint, day: string, requestId: string): boolean {
    const pending = pendingKey(hash, endpoint, day);
    if (this.#db.getBinary(pending)?.toString('utf8') !== requestId) return false;
    this.#db.removeSync(pending);
    return true;
  }

  /** Inside a write transaction: empties the slots in [start, end) whose day is `chosen`, with what they held. */
  #drainSlots(start: string, end: string, chosen: (day: string) => boolean = () => true): Drained[] {
    const out: Drained[] = [];
    // Read first (each value copied as it is read), then written: no change under the open cursor.
    for (const { key, rec } of Array.from(this.#db.getRange({ start, end }), (e) => ({ key: e.key, rec: decode(e.value) }))) {
      const [, hash, endpoint, day] = key.split('|');
      if (!chosen(day) || (rec.length === RANGES && rec[UNREPORTED] !== 1)) continue;
      const info = this.info(hash);
      if (info !== undefined) {
        out.push({ keyHash: hash, keyId: info.id, endpoint: endpoint as MeteredEndpoint, day, ranges: rangesOf(rec), unreported: rec[UNREPORTED] === 1 });
      }
      this.#write(key, emptied(rec));
    }
    return out;
  }

  #remember(hash: string, info: KeyInfo): void {
    this.#db.putSync(infoKey(hash), Buffer.from(JSON.stringify(info)));
    this.#db.putSync(idKey(info.id), Buffer.from(hash));
  }

  #read(key: string): Float64Array | undefined {
    const raw = this.#db.getBinary(key);
    return raw === undefined ? undefined : decode(raw);
  }

  #write(key: string, rec: Float64Array): void {
    this.#db.putSync(key, Buffer.from(rec.buffer, rec.byteOffset, rec.byteLength));
  }
}

/** The record as numbers (LMDB's bytes need not be 8-byte aligned). */
function decode(raw: Uint8Array): Float64Array {
  const rec = new Float64Array(raw.byteLength / 8);
  new Uint8Array(rec.buffer).set(raw);
  return rec;
}

/** The record without its units, nothing asked for or refused: the count it reports stays. */
function emptied(rec: Float64Array): Float64Array {
  const next = rec.slice(0, RANGES);
  next[UNREPORTED] = 0;
  next[ASKING_UNTIL] = 0;
  next[EXHAUSTED_UNTIL] = 0;
  return next;
}

function fresh(): Float64Array {
  return new Float64Array(RANGES);
}

function rangesOf(rec: Float64Array): Range[] {
  const out: Range[] = [];
  for (let i = RANGES; i + 1 < rec.length; i += 2) out.push([rec[i], rec[i + 1]]);
  return out;
}

function heldIn(rec: Float64Array): number {
  let n = 0;
  for (let i = RANGES; i + 1 < rec.length; i += 2) n += rec[i + 1] - rec[i] + 1;
  return n;
}

/** What the stripes of one ledger report of their disk: each change of state once. */
export interface LedgerStorage {
  failed(cause: unknown): void;
  committed(): void;
}

/** LMDB's and the OS's words for a disk that takes no more writes (full, over quota, failing). */
const STORAGE_FAULT = /No space left|ENOSPC|MDB_MAP_FULL|Disk quota|EDQUOT|Input\/output error|EIO\b/;
const isStorageFault = (error: unknown): boolean => error instanceof Error && STORAGE_FAULT.test(`${(error as { code?: string }).code ?? ''} ${error.message}`);
