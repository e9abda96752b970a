// Commits that skip the fsync, with the WAL synced within a bound afterwards: for the requests the service
// counts one at a time, where an fsync per request would cost each one more than everything else it does.
import type { Db } from './open.ts';

/**
 * At most this long between a commit made without fsync and the WAL reaching the disk. A power loss (not a
 * kill -9: the WAL is then in the OS's cache) can forget the requests counted in that time.
 */
export const SYNC_WITHIN_MS = 1000;

export interface LazySync {
  /** Runs `commit` (a transaction) with synchronous = NORMAL and schedules the WAL's sync. */
  run<T>(commit: () => T): T;
  /** Syncs now if a commit is waiting for it (at shutdown). */
  flush(): void;
}

export function createLazySync(db: Db, withinMs = SYNC_WITHIN_MS): LazySync {
  const normal = db.prepare('PRAGMA synchronous = NORMAL');
  const full = db.prepare('PRAGMA synchronous = FULL');
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    // In WAL mode a checkpoint first syncs the WAL, and with it every commit made since the last sync.
    if (db.open) db.pragma('wal_checkpoint(PASSIVE)');
  };
  return {
    run(commit) {
      normal.run();
      try {
        return commit();
      } finally {
        full.run();
        if (timer === undefined) {
          timer = setTimeout(flush, withinMs);
          timer.unref();
        }
      }
    },
    flush,
  };
}
