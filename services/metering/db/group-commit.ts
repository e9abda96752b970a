// Group commit: the writes requested within one event-loop turn run in one transaction, committed (with its one
// fsync) before any of their callers is answered. Grants and releases are many small commits, and at many
// keys' first requests of the day the fsync per commit, not the work, would bound the admissions per second.
// Replicated (replication/replica.ts), the group's row changes are appended to the database's stream, with the
// transaction still open, and the group commits only once the stream has acknowledged them.
import { LogMovedOnError, type Replica } from '../replication/replica.ts';
import type { Db } from './open.ts';

interface Pending {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Writes per replicated group at most: the group is one stream message (a few hundred bytes per write, well
 * under the server's 1 MiB payload limit), and the rest wait for the next group.
 */
export const MAX_REPLICATED_GROUP = 256;
/** Times a group is run again on a caught-up copy after another writer appended first. */
const REPLICATED_ATTEMPTS = 3;

export class GroupCommit {
  #queue: Pending[] = [];
  #scheduled = false;
  #replica: Replica | undefined;

  constructor(private readonly db: Db) {}

  /** From now on, each group is appended to `replica`'s stream before it commits. */
  replicate(replica: Replica): void {
    this.#replica = replica;
  }

  /** Writes waiting for the next group. */
  get pending(): number {
    return this.#queue.length;
  }

  /**
   * Runs `write` (which may itself be a transaction: it then runs in a savepoint of the group's, so that a
   * write that throws undoes only its own part) in the next group; resolves once the group has committed.
   * Replicated, `write` may run more than once (another writer appended first): it must only write.
   */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => (this.#replica === undefined ? this.#commit() : void this.#commitReplicated(this.#replica)));
  }

  #commit(): void {
    const group = this.#queue;
    this.#queue = [];
    this.#scheduled = false;
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      // IMMEDIATE: the write lock first (metering processes share metering.db).
      this.db
        .transaction(() => {
          for (const p of group) outcomes.push(runOne(p));
        })
        .immediate();
    } catch (error) {
      // The commit itself failed (a full disk): nothing of the group was written.
      for (const p of group) p.reject(error);
      return;
    }
    settle(group, outcomes);
  }

  /** One group at a time: the next waits (and grows) while this one's append is in flight. */
  async #commitReplicated(replica: Replica): Promise<void> {
    const group = this.#queue.splice(0, MAX_REPLICATED_GROUP);
    try {
      settle(group, await replica.exclusive(() => this.#appendGroup(replica, group)));
    } catch (error) {
      for (const p of group) p.reject(error);
    } finally {
      this.#scheduled = false;
      if (this.#queue.length > 0) this.#schedule();
    }
  }

  async #appendGroup(replica: Replica, group: Pending[]): Promise<{ ok: boolean; value: unknown }[]> {
    for (let attempt = 1; ; attempt++) {
      const outcomes: { ok: boolean; value: unknown }[] = [];
      this.db.exec('BEGIN IMMEDIATE');
      try {
        // Changes captured outside a group (housekeeping) go with this one.
        for (const p of group) outcomes.push(runOne(p));
        const changes = replica.capture.take();
        if (changes.length > 0) replica.capture.markApplied(await replica.append(changes, replica.capture.applied()));
        this.db.exec('COMMIT');
        return outcomes;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        // The rolled-back rows' images must never reach the stream.
        replica.capture.discard();
        if (!(error instanceof LogMovedOnError) || attempt >= REPLICATED_ATTEMPTS) throw error;
        await replica.catchUpNow();
      }
    }
  }
}

function runOne(p: Pending): { ok: boolean; value: unknown } {
  try {
    return { ok: true, value: p.write() };
  } catch (error) {
    return { ok: false, value: error };
  }
}

function settle(group: Pending[], outcomes: { ok: boolean; value: unknown }[]): void {
  group.forEach((p, i) => (outcomes[i].ok ? p.resolve(outcomes[i].value) : p.reject(outcomes[i].value)));
}
