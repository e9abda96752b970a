// Key-creation throttle: attempts per IP address in a sliding window, kept in metering.db so that it is
// exact across API workers and survives a restart.
import { KEY_CREATION_LIMIT, KEY_CREATION_WINDOW_SECONDS } from '../../shared/plans.ts';
import type { Db } from '../db/open.ts';

const WINDOW_MS = KEY_CREATION_WINDOW_SECONDS * 1000;

export function createThrottle(db: Db) {
  const insert = db.prepare<[string, number]>('INSERT INTO registration_attempts (ip, at) VALUES (?, ?)');
  const count = db.prepare<[string, number], { n: number }>(
    'SELECT count(*) AS n FROM registration_attempts WHERE ip = ? AND at > ?',
  );
  const prune = db.prepare<[number]>('DELETE FROM registration_attempts WHERE at <= ?');

  /**
   * Records one attempt (spec: every request counts, refused ones too) and says whether it is allowed:
   * at most KEY_CREATION_LIMIT attempts from `ip` in the window ending now.
   */
  const attempt = db.transaction((ip: string, now: number): boolean => {
    prune.run(now - WINDOW_MS);
    insert.run(ip, now);
    return (count.get(ip, now - WINDOW_MS)?.n ?? 0) <= KEY_CREATION_LIMIT;
  });

  // IMMEDIATE: exact across metering processes too (each one's count and insert hold the write lock).
  return { attempt: (ip: string, now: number): boolean => attempt.immediate(ip, now) };
}

export type Throttle = ReturnType<typeof createThrottle>;
