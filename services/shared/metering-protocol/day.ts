// UTC day arithmetic: the day a moment belongs to and the seconds until it ends. Quotas and the word of the
// day both turn at 00:00 UTC.

const DAY_MS = 86_400_000;

let cachedDayIndex = Number.NaN;
let cachedDay = '';

/** YYYY-MM-DD of the UTC day containing `nowMs` (memoised: it is on every admission's path). */
export function utcDay(nowMs: number): string {
  const index = Math.floor(nowMs / DAY_MS);
  if (index !== cachedDayIndex) {
    cachedDay = new Date(index * DAY_MS).toISOString().slice(0, 10);
    cachedDayIndex = index;
  }
  return cachedDay;
}

/** Milliseconds since epoch of the next 00:00 UTC strictly after `nowMs`. */
export function nextUtcMidnight(nowMs: number): number {
  return (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
}

/** Retry-After for quota_exceeded: whole seconds until 00:00 UTC, at least 1. */
export function secondsToUtcMidnight(nowMs: number): number {
  return Math.max(1, Math.ceil((nextUtcMidnight(nowMs) - nowMs) / 1000));
}

/** Whole days from `a` to `b` (both YYYY-MM-DD). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);
}
