// How many units one lease grants: large while plenty remains, single units near the limit.

/** Cap on a block a worker did not size by its rate: bounds what a worker that dies can take with it. */
export const MAX_BLOCK_UNITS = 1000;
/**
 * Cap on a block sized by a worker's own rate (it asks for about LEASE_HORIZON_MS of its traffic for the key
 * and endpoint; services/api/metering-client/nats-meter.ts): a 1,000-unit block lasts about 33 ms at 30k requests/s,
 * less than this service's answer sometimes takes (a WAL fsync held up, both cores busy). Also the most a
 * dying worker can take with it per block: about half a second of its traffic for that key.
 */
export const MAX_RATE_BLOCK_UNITS = 20_000;
/** A block is at most this fraction of what is still allocatable while others may ask too. */
export const BLOCK_DIVISOR = 8;

/**
 * `allocatable` units are left for the day; the asking worker `want`s that many (the requests waiting in it,
 * or what its rate will take before it can ask again). The block is 1/BLOCK_DIVISOR of what is left, raised
 * towards `want` but never past half of it, so that another worker still finds units; so blocks shrink
 * geometrically and end as single units near the limit. It is capped at MAX_BLOCK_UNITS, or at `want` up to
 * MAX_RATE_BLOCK_UNITS when the worker wants more.
 */
export function blockSize(allocatable: number, want: number): number {
  if (allocatable <= 0) return 0;
  const base = Math.floor(allocatable / BLOCK_DIVISOR);
  const wanted = Math.min(want, Math.floor(allocatable / 2));
  const cap = Math.max(MAX_BLOCK_UNITS, Math.min(want, MAX_RATE_BLOCK_UNITS));
  return Math.max(1, Math.min(allocatable, cap, Math.max(base, wanted)));
}
