// Turns a held unit or an exhausted lease into what the Meter returns or throws. Pure, no I/O.
import { QuotaExceededError } from '../../shared/domain-errors.ts';
import { secondsToUtcMidnight } from '../../shared/metering/day.ts';
import type { KeyInfo } from '../../shared/metering/protocol.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { Admission } from './meter.ts';

/** `n` is the unit's number within the key's day for the endpoint: X-RateLimit-Used. */
export function admission(info: KeyInfo, n: number): Admission {
  return { keyPrefix: info.prefix, plan: info.plan, limit: info.limit, used: n, remaining: Math.max(0, info.limit - n) };
}

export function quotaExceeded(info: KeyInfo, endpoint: MeteredEndpoint, used: number, now: number): QuotaExceededError {
  return new QuotaExceededError({
    plan: info.plan,
    endpoint,
    limit: info.limit,
    used,
    retryAfterSeconds: secondsToUtcMidnight(now),
  });
}
