// How many units one lease grants: large while plenty remains, single units near the limit.

/** Cap on one block: bounds what a worker that dies can take with it (over-counting). */
export const MAX_BLOCK_UNITS = 1000;
/** A block is at most this fraction of what is still allocatable while others may ask too. */
export const BLOCK_DIVISOR = 8;

/**
 * `allocatable` units are left for the day; `want` requests wait in the asking worker. The block is
 * 1/BLOCK_DIVISOR of what is left, raised towards `want` but never past half of it, so that another worker
 * still finds units; so blocks shrink geometrically and end as single units near the limit.
 */
export function blockSize(allocatable: number, want: number): number {
  if (allocatable <= 0) return 0;
  const base = Math.floor(allocatable / BLOCK_DIVISOR);
  const wanted = Math.min(want, Math.floor(allocatable / 2));
  return Math.max(1, Math.min(allocatable, MAX_BLOCK_UNITS, Math.max(base, wanted)));
}
