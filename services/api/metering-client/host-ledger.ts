// The allowance the API workers of one host share: the units metering leased to the host (one lease holder,
// whose id is kept here), per key, endpoint and UTC day, with the count X-RateLimit-Used reports, in LMDB files
// under DATA_DIR that every worker maps. Each operation is one LMDB write transaction (a batch of takes, one per
// stripe: HostTakes): atomic across the workers, and a worker killed in the middle of one leaves nothing
// half-written (docs/metering.md).
import fs from 'node:fs';
import path from 'node:path';

import { open, type Database } from 'lmdb';

import type { KeyInfo } from '../../shared/metering-protocol/protocol.ts';
import type { Range } from '../../shared/metering-protocol/ranges.ts';
import { makePrivateDir } from '../../shared/private-files.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import { LedgerStripe, type Drained, type HostTake, type LedgerStorage, type TakeSlot } from './ledger-stripe.ts';

export type { Drained, HostTake, TakeSlot } from './ledger-stripe.ts';

/** The ledger's directory under DATA_DIR. */
export const HOST_LEDGER_DIR = 'host-allowance';
/**
 * LMDB environments a new ledger is split into by key hash, each with its own write lock (LedgerStripe). One:
 * a turn's takes spread over several stripes each paid a commit of their own (with 4, a worker's turn of a few
 * takes made about as many commits as takes: scripts/bench/ledger-takes.ts), and with a turn's takes over
 * every stripe each worker took every lock each turn anyway. A host with many workers may want more
 * (docs/metering.md, *Stripes*).
 */
export const STRIPES = 1;
/** Stripes of a ledger made before the count was recorded in it (one with a `stripe-01`). */
const UNRECORDED_STRIPES = 4;

export class HostLedger {
  /** The host's lease-holder id: kept in the file, so that it outlives every worker and a restart of the host. */
  readonly hostId: string;
  readonly #dir: string;
  readonly #stripes: LedgerStripe[];

  /** `storage` hears when the ledger's disk stops taking commits and when it takes them again, once each. */
  constructor(dataDir: string, storage: StorageEvents = {}) {
    this.#dir = path.resolve(dataDir, HOST_LEDGER_DIR);
    const state = storageState(storage);
    const first = new LedgerStripe(openShared(stripeDir(this.#dir, 0)), state);
    // The count is the ledger's layout (a key's stripe follows from it): fixed when the ledger is made, so that
    // workers of another version on the same host find each key where the others put it.
    const count = first.stripes(fs.existsSync(stripeDir(this.#dir, 1)) ? UNRECORDED_STRIPES : STRIPES);
    this.#stripes = [first, ...Array.from({ length: count - 1 }, (_, n) => new LedgerStripe(openShared(stripeDir(this.#dir, n + 1)), state))];
    this.hostId = first.hostId();
  }

  /** LMDB environments of this ledger. */
  get stripeCount(): number {
    return this.#stripes.length;
  }

  /** The stripe of a key (bits of its hash that do not choose its metering shard). */
  #of(hash: string): LedgerStripe {
    return this.#stripes[stripeOf(hash, this.#stripes.length)];
  }

  info(hash: string): KeyInfo | undefined {
    return this.#of(hash).info(hash);
  }

  hashOf(keyId: string): string | undefined {
    for (const stripe of this.#stripes) {
      const hash = stripe.hashOf(keyId);
      if (hash !== undefined) return hash;
    }
    return undefined;
  }

  take(hash: string, endpoint: MeteredEndpoint, day: string, now: number, askBelowShare: number, askForMs: number): HostTake {
    return this.#of(hash).take(hash, endpoint, day, now, askBelowShare, askForMs);
  }

  /**
   * One take per slot, in order (a slot may come several times), with one write transaction per stripe. A
   * stripe whose transaction fails gives its slots the error (nothing of it was committed); the others stand.
   */
  takeAll(slots: readonly TakeSlot[], now: number, askBelowShare: number, askForMs: number): (HostTake | Error)[] {
    const out = new Array<HostTake | Error>(slots.length);
    const byStripe = new Map<number, number[]>();
    for (let i = 0; i < slots.length; i++) {
      const n = stripeOf(slots[i].hash, this.#stripes.length);
      const wanted = byStripe.get(n);
      if (wanted === undefined) byStripe.set(n, [i]);
      else wanted.push(i);
    }
    for (const [n, wanted] of byStripe) {
      try {
        this.#stripes[n].takeAll(slots, wanted, out, now, askBelowShare, askForMs);
      } catch (error) {
        const failed = error instanceof Error ? error : new Error(String(error));
        for (const i of wanted) out[i] = failed;
      }
    }
    return out;
  }

  grant(hash: string, endpoint: MeteredEndpoint, day: string, info: KeyInfo, grant: { requestId: string; ranges: readonly Range[]; others: number }): void {
    this.#of(hash).grant(hash, endpoint, day, info, grant);
  }

  pendingRequest(hash: string, endpoint: MeteredEndpoint, day: string): string {
    return this.#of(hash).pendingRequest(hash, endpoint, day);
  }

  discard(hash: string, endpoint: MeteredEndpoint, day: string, requestId: string): boolean {
    return this.#of(hash).discard(hash, endpoint, day, requestId);
  }

  exhausted(hash: string, endpoint: MeteredEndpoint, day: string, info: KeyInfo, used: number, until: number): void {
    this.#of(hash).exhausted(hash, endpoint, day, info, used, until);
  }

  askFailed(hash: string, endpoint: MeteredEndpoint, day: string): void {
    this.#of(hash).askFailed(hash, endpoint, day);
  }

  holding(hash: string, endpoint: MeteredEndpoint, day: string): Range[] {
    return this.#of(hash).holding(hash, endpoint, day);
  }

  drain(hash: string, endpoint: MeteredEndpoint, day: string): Range[] {
    return this.#of(hash).drain(hash, endpoint, day);
  }

  forget(hash: string): Drained[] {
    return this.#of(hash).forget(hash);
  }

  sweepDays(today: string): Drained[] {
    return this.#stripes.flatMap((stripe) => stripe.sweepDays(today));
  }

  clear(): Drained[] {
    return this.#stripes.flatMap((stripe) => stripe.clear());
  }

  async close(): Promise<void> {
    await Promise.all(this.#stripes.map((_, n) => closeShared(stripeDir(this.#dir, n))));
  }
}

function stripeDir(dir: string, n: number): string {
  return path.join(dir, `stripe-${String(n).padStart(2, '0')}`);
}

function stripeOf(hash: string, stripes: number): number {
  return stripes === 1 ? 0 : Number.parseInt(hash.slice(8, 16), 16) % stripes;
}

/**
 * LMDB must not be opened twice by one process (its locks are per process, and closing one handle drops the
 * other's): ledgers of one directory in one process (tests run several workers in one) share one handle.
 */
const handles = new Map<string, { db: Database<Buffer, string>; refs: number }>();

function openShared(dir: string): Database<Buffer, string> {
  let handle = handles.get(dir);
  if (handle === undefined) {
    makePrivateDir(dir);
    // noSync: a commit is in the shared page cache at once, which every worker and a restart after kill -9 see;
    // an fsync per request would cost more than the request. Not useWritemap: with it, lmdb 3.5's LMDB fails an
    // assertion in mdb_freelist_save when a record is removed (test/metering/allowance.test.ts found it). The
    // map starts small and lmdb grows it (and the file) as records are written.
    const db = open<Buffer, string>({ path: dir, encoding: 'binary', noSync: true });
    handle = { db, refs: 0 };
    handles.set(dir, handle);
  }
  handle.refs++;
  return handle.db;
}

async function closeShared(dir: string): Promise<void> {
  const handle = handles.get(dir);
  if (handle === undefined || --handle.refs > 0) return;
  handles.delete(dir);
  await handle.db.close();
}

export interface StorageEvents {
  failed?: (cause: string) => void;
  recovered?: () => void;
}

/** The ledger's disk state, shared by its stripes: a flood of failing requests is one event, not one per request. */
function storageState(events: StorageEvents): LedgerStorage {
  let failing = false;
  return {
    failed(cause) {
      if (failing) return;
      failing = true;
      events.failed?.(cause instanceof Error ? cause.message : String(cause));
    },
    committed() {
      if (!failing) return;
      failing = false;
      events.recovered?.();
    },
  };
}
