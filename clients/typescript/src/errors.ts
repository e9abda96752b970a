// The client's one error type: every failure the service answers, with the spec's code, message and details.
import type { ErrorCode, QuotaDetails, RateLimit } from './types.ts';

/**
 * Codes the client adds for failures that carry no error body of the service: `network_error` (the request
 * got no answer; status 0) and `unexpected_response` (an answer that is not the service's JSON, e.g. a proxy's
 * HTML page).
 */
export type ClientErrorCode = 'network_error' | 'unexpected_response';

export interface DictionaryApiErrorInit {
  code: ErrorCode | ClientErrorCode;
  message: string;
  status: number;
  details?: QuotaDetails;
  /** Seconds from the Retry-After header of a 429. */
  retryAfterSeconds?: number;
  rateLimit?: RateLimit | null;
  cause?: unknown;
}

export class DictionaryApiError extends Error {
  override readonly name = 'DictionaryApiError';
  /** Stable: branch on it. The message is for people and may become more specific. */
  readonly code: ErrorCode | ClientErrorCode;
  /** The HTTP status; 0 when no answer came. */
  readonly status: number;
  /** Set for quota_exceeded: plan, endpoint, used, limit. */
  readonly details: QuotaDetails | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** The X-RateLimit-* headers, which a metered failure after the key is resolved still carries. */
  readonly rateLimit: RateLimit | null;

  constructor(init: DictionaryApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.rateLimit = init.rateLimit ?? null;
  }
}
