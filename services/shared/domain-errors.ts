// Named domain errors raised below the HTTP edge (metering client, snapshot); the API edge translates them
// into public ApiError codes in one place.
import type { MeteredEndpoint, Plan } from './plans.ts';

export class InvalidApiKeyError extends Error {
  override readonly name = 'InvalidApiKeyError';
}

export interface QuotaState {
  plan: Plan;
  endpoint: MeteredEndpoint;
  limit: number;
  used: number;
  /** Seconds until the next 00:00 UTC. */
  retryAfterSeconds: number;
}

export class QuotaExceededError extends Error {
  override readonly name = 'QuotaExceededError';
  constructor(readonly state: QuotaState) {
    super(`quota exceeded for ${state.endpoint}`);
  }
}

export class RateLimitedError extends Error {
  override readonly name = 'RateLimitedError';
  /** The key-creation window, fixed by the spec. */
  readonly retryAfterSeconds = 900;
}

/** Metering or NATS is unreachable (no responders, timeout, closed connection). Fails closed. */
export class MeteringUnavailableError extends Error {
  override readonly name = 'MeteringUnavailableError';
}

/** A registration field the metering service refused; `parameter` names it for invalid_parameter. */
export class InvalidRegistrationError extends Error {
  override readonly name = 'InvalidRegistrationError';
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}
