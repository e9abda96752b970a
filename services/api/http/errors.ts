// The API edge's one translation from thrown errors (ApiError or named domain errors) to public ApiErrors.
import {
  InvalidApiKeyError,
  InvalidRegistrationError,
  MeteringUnavailableError,
  QuotaExceededError,
  RateLimitedError,
} from '../../shared/domain-errors.ts';
import { ApiError, internalError, invalidApiKey } from '../../shared/errors.ts';
import { BodyAbortedError } from './hyper-express-adapter.ts';

import type { QuotaState } from '../../shared/domain-errors.ts';
import type { OperatorContact } from '../operator-contact.ts';

/**
 * Known errors become their public code; MeteringUnavailableError (fail closed) becomes internal_error, logged
 * once per outage by the caller (fail-closed.ts); anything else becomes internal_error with the generic message,
 * and `unexpected` is true so the caller logs the stack.
 */
export function toApiError(error: unknown, contact?: OperatorContact): { apiError: ApiError; unexpected: boolean } {
  if (error instanceof ApiError) return { apiError: error, unexpected: false };
  // The client went away mid-body: nobody reads the answer, and nothing went wrong here.
  if (error instanceof BodyAbortedError) return { apiError: internalError(), unexpected: false };
  if (error instanceof InvalidApiKeyError) return { apiError: invalidApiKey(), unexpected: false };
  if (error instanceof QuotaExceededError) return { apiError: quotaExceeded(error.state, contact), unexpected: false };
  if (error instanceof RateLimitedError) {
    const apiError = new ApiError(
      'rate_limited',
      `Too many key requests from this address: at most 5 in 15 minutes. Try again in ${error.retryAfterSeconds} seconds.`,
      undefined,
      { 'retry-after': String(error.retryAfterSeconds) },
    );
    return { apiError, unexpected: false };
  }
  // Metering unreachable, a full disk, or registrations at their bound (counted in the metrics): fail closed,
  // logged once per state change by the caller (fail-closed.ts), never a line per request.
  if (error instanceof MeteringUnavailableError) return { apiError: internalError(), unexpected: false };
  if (error instanceof InvalidRegistrationError) {
    return {
      apiError: new ApiError('invalid_parameter', `Invalid parameter '${error.parameter}': ${error.message}`),
      unexpected: false,
    };
  }
  return { apiError: internalError(), unexpected: true };
}

/**
 * Spec (Errors): states plan, endpoint, requests used, limit, the 00:00 UTC reset and how to upgrade; the
 * pointer to upgrade names the operator's contact (OPERATOR_CONTACT), or says that none is published.
 */
export function quotaExceeded(state: QuotaState, contact?: OperatorContact): ApiError {
  const upgrade = 'To raise the limit, contact the operator to upgrade to the team or institution plan';
  const message =
    `Daily quota exceeded: the ${state.plan} plan allows ${state.limit} requests per day to ${state.endpoint}, ` +
    `and this key has used ${state.used}. The quota resets at 00:00 UTC (in ${state.retryAfterSeconds} seconds). ` +
    (contact ? `${upgrade}: ${contact.text}.` : `${upgrade} (this service has not published a contact address).`);
  return new ApiError(
    'quota_exceeded',
    message,
    { plan: state.plan, endpoint: state.endpoint, used: state.used, limit: state.limit },
    { 'retry-after': String(state.retryAfterSeconds) },
  );
}
