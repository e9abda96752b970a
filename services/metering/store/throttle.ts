// Key-creation throttle (spec: 5 requests per address per 15 minutes, Retry-After 900). Two bounded checks:
// every attempt this process sees, refused ones included, counted in memory (the last 5 times per address, no
// write: a flood of refused attempts costs no insert and no fsync); and the keys issued per address in
// metering.db, durable and shared by the metering processes, counted by index with LIMIT so that the count
// reads at most 5 rows however many attempts an address made.
import { AddressWindow } from '../../shared/address-window.ts';
import { KEY_CREATION_LIMIT, KEY_CREATION_WINDOW_SECONDS } from '../../shared/plans.ts';
import type { Db } from '../db/open.ts';

const WINDOW_MS = KEY_CREATION_WINDOW_SECONDS * 1000;
/** Addresses whose recent attempts are kept in memory (5 numbers each): a stream of new ones evicts the quiet. */
export const THROTTLE_ADDRESSES = 100_000;

export function createThrottle(db: Db) {
  const window = new AddressWindow(KEY_CREATION_LIMIT, WINDOW_MS, THROTTLE_ADDRESSES);
  const issued = db.prepare<[string, number, number], { n: number }>(
    'SELECT count(*) AS n FROM (SELECT 1 FROM registration_attempts WHERE ip = ? AND at > ? LIMIT ?)',
  );
  const insert = db.prepare<[string, number]>('INSERT INTO registration_attempts (ip, at) VALUES (?, ?)');
  const prune = db.prepare<[number]>('DELETE FROM registration_attempts WHERE at <= ?');

  return {
    /**
     * Counts one attempt in memory and says whether the address is within the limit (spec: every request
     * counts, refused ones too). Writes nothing.
     */
    attempt: (ip: string, now: number): boolean => window.attempt(ip, now),
    /**
     * Inside the registration's transaction: false when the address already has KEY_CREATION_LIMIT keys issued
     * in the window (another metering process, or one before a restart, issued them); otherwise records this
     * one with the key it commits with.
     */
    issue(ip: string, now: number): boolean {
      if ((issued.get(ip, now - WINDOW_MS, KEY_CREATION_LIMIT)?.n ?? 0) >= KEY_CREATION_LIMIT) return false;
      prune.run(now - WINDOW_MS);
      insert.run(ip, now);
      return true;
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;
