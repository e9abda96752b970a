// Group commit of the host's ledger in a worker: the admissions that take a unit of the host's during one
// event-loop turn (the requests of one batch of socket reads) are written together, one LMDB write transaction
// per stripe, when the turn's callbacks are done; each is answered only after the commit that holds its unit.
import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { HostLedger, HostTake, TakeSlot } from './host-ledger.ts';

/** One admission waiting for its unit. */
export interface PendingTake extends TakeSlot {
  /** Called with the committed take, or with the error that kept it from being committed. */
  done(shared: HostTake | Error): void;
}

/**
 * A commit costs several times what one take in it costs (LMDB writes the dirty pages and the meta page with a
 * syscall each), so a worker serving many light keys at once spends most of its metering time in commits; a
 * turn's admissions share them. A client that sends one request at a time waits for no other: its request is
 * alone in its turn, and is committed at that turn's end (setImmediate: after the socket reads of the turn).
 */
export class HostTakes {
  #queue: PendingTake[] = [];
  readonly #flush = (): void => this.flush();

  constructor(
    private readonly ledger: HostLedger,
    private readonly now: () => number,
    private readonly askBelowShare: number,
    private readonly askForMs: number,
  ) {}

  /** Queues a take of the slot; `done` runs once it is committed (or failed), at the end of this turn. */
  take(hash: string, endpoint: MeteredEndpoint, day: string, done: PendingTake['done']): void {
    if (this.#queue.length === 0) setImmediate(this.#flush);
    this.#queue.push({ hash, endpoint, day, done });
  }

  /** Commits what is queued and answers each admission, in the order they came. */
  flush(): void {
    const queue = this.#queue;
    if (queue.length === 0) return;
    this.#queue = [];
    let taken: (HostTake | Error)[];
    try {
      taken = this.ledger.takeAll(queue, this.now(), this.askBelowShare, this.askForMs);
    } catch (error) {
      const failed = error instanceof Error ? error : new Error(String(error));
      taken = queue.map(() => failed);
    }
    for (let i = 0; i < queue.length; i++) queue[i].done(taken[i]);
  }
}
