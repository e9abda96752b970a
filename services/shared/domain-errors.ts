// Named domain errors raised below the HTTP edge (metering client, snapshot); the API edge translates them
// into public ApiError codes in one place.
import type { MeteredEndpoint, Plan } from './plans.ts';

/**
 * An error that answers a client (a bad key, a spent quota, an unknown entry) rather than reporting a fault:
 * built without capturing a stack trace. Nobody reads one, and capturing a stack costs more than the rest of
 * the JavaScript of a 404: a client retrying refused requests should not cost a worker more than one being
 * served.
 */
export class AnswerError extends Error {
  constructor(message?: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

export class InvalidApiKeyError extends AnswerError {
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

export class QuotaExceededError extends AnswerError {
  override readonly name = 'QuotaExceededError';
  constructor(readonly state: QuotaState) {
    super(`quota exceeded for ${state.endpoint}`);
  }
}

export class RateLimitedError extends AnswerError {
  override readonly name = 'RateLimitedError';
  /** The key-creation window, fixed by the spec. */
  readonly retryAfterSeconds = 900;
}

/** Metering or NATS is unreachable (no responders, timeout, closed connection). Fails closed. */
export class MeteringUnavailableError extends Error {
  override readonly name: string = 'MeteringUnavailableError';
}

/**
 * The metering service answered that metering.db takes no commits (a full disk). It logged the cause once and
 * /healthz reports it: the request fails closed without a log line of its own.
 */
export class MeteringStorageError extends MeteringUnavailableError {
  override readonly name: string = 'MeteringStorageError';
}

/**
 * Registrations are at their bound of ones in flight (the worker's, or those waiting for metering's commit):
 * refused at once rather than queued, without a log line per request (the bound is the point).
 */
export class RegistrationsBusyError extends MeteringUnavailableError {
  override readonly name = 'RegistrationsBusyError';
}

/** A registration field the metering service refused; `parameter` names it for invalid_parameter. */
export class InvalidRegistrationError extends AnswerError {
  override readonly name = 'InvalidRegistrationError';
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}
