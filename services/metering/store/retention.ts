// Keeps daily usage for USAGE_RETENTION_DAYS: at start and once a day, deletes the rows of older days, a batch
// per event-loop turn so that lease requests are never held up behind one long delete.
import { utcDay } from '../../shared/metering-protocol/day.ts';

import type { Log } from '../log.ts';
import type { QuotaStore } from './quota.ts';

const DAY_MS = 86_400_000;
/** Rows deleted per statement: a few milliseconds of the metering process at a time. */
export const PRUNE_BATCH_ROWS = 2_000;

export interface UsageRetention {
  /** Resolves once the prune in progress (if any) has finished. */
  idle(): Promise<void>;
  stop(): void;
}

export function startUsageRetention(stores: readonly QuotaStore[], days: number, now: () => number, log: Log): UsageRetention {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const prune = async (): Promise<void> => {
    // Rows of days more than `days` before today go: today and the `days` before it stay.
    const before = utcDay(now() - days * DAY_MS);
    let deleted = 0;
    for (const quota of stores) {
      for (;;) {
        if (stopped) break;
        const n = quota.pruneDays(before, PRUNE_BATCH_ROWS);
        deleted += n;
        if (n < PRUNE_BATCH_ROWS) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (deleted > 0) log.info({ msg: 'usage pruned', before, rows: deleted });
  };
  const run = () => {
    running = running.then(prune).catch((error: unknown) => log.error({ msg: 'usage prune failed', error: String(error) }));
  };
  run();
  const timer = setInterval(run, DAY_MS);
  timer.unref();
  return {
    idle: () => running,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
