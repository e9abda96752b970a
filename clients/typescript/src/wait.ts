// How long to wait after a 429, as the contract says: quota_exceeded lasts until 00:00 UTC, rate_limited for
// its 900-second window; a Retry-After header, when sent, is the service's own word and wins.

/** The registration throttle's window (spec, Limits: 5 per address per 15 minutes, Retry-After 900). */
export const RATE_LIMITED_WAIT_SECONDS = 900;
const DAY_MS = 86_400_000;

/** Milliseconds from `now` to the next 00:00 UTC, when daily quotas reset. */
export function msUntilUtcMidnight(now: number): number {
  return DAY_MS - (((now % DAY_MS) + DAY_MS) % DAY_MS);
}

/** Retry-After as milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The 429 codes worth waiting on; any other 429 (e.g. a proxy's) is raised at once. */
export type WaitableCode = 'quota_exceeded' | 'rate_limited';

/** The wait before retrying a 429 with this code, in milliseconds. */
export function waitAfter429(code: WaitableCode, retryAfter: string | null, now: number): number {
  const fromHeader = retryAfterMs(retryAfter, now);
  if (fromHeader !== undefined) return fromHeader;
  return code === 'rate_limited' ? RATE_LIMITED_WAIT_SECONDS * 1000 : msUntilUtcMidnight(now);
}
