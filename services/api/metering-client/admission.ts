// Turns a held unit or an exhausted lease into what the Meter returns or throws. Pure, no I/O.
import { QuotaExceededError } from '../../shared/domain-errors.ts';
import { secondsToUtcMidnight } from '../../shared/metering-protocol/day.ts';
import type { KeyInfo } from '../../shared/metering-protocol/protocol.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { Admission } from './meter.ts';

/** `used` is what X-RateLimit-Used reports; `unit` the request's number within the key's day for the endpoint. */
export function admission(info: KeyInfo, used: number, unit: number): Admission {
  const reported = Math.min(info.limit, Math.max(1, used));
  return { keyPrefix: info.prefix, plan: info.plan, limit: info.limit, used: reported, remaining: info.limit - reported, unit };
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
