// Group commit: the writes requested within one event-loop turn run in one transaction, committed (with its one
// fsync) before any of their callers is answered. Grants and releases are many small commits, and at many
// keys' first requests of the day the fsync per commit, not the work, would bound the admissions per second.
import type { Db } from './open.ts';

interface Pending {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit {
  #queue: Pending[] = [];
  #scheduled = false;

  constructor(private readonly db: Db) {}

  /** Writes waiting for the next group. */
  get pending(): number {
    return this.#queue.length;
  }

  /**
   * Runs `write` (which may itself be a transaction: it then runs in a savepoint of the group's, so that a
   * write that throws undoes only its own part) in the next group; resolves once the group has committed.
   */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#commit());
      }
    });
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
          for (const p of group) {
            try {
              outcomes.push({ ok: true, value: p.write() });
            } catch (error) {
              outcomes.push({ ok: false, value: error });
            }
          }
        })
        .immediate();
    } catch (error) {
      // The commit itself failed (a full disk): nothing of the group was written.
      for (const p of group) p.reject(error);
      return;
    }
    group.forEach((p, i) => (outcomes[i].ok ? p.resolve(outcomes[i].value) : p.reject(outcomes[i].value)));
  }
}
