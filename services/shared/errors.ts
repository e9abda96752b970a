// The public error type: the closed list of codes (the interface spec's, and two for requests that break HTTP
// itself) and one code→status table. Handlers throw ApiError (or a named domain error that the API edge
// translates); nothing else builds error JSON.
import { AnswerError } from './domain-errors.ts';

export const ERROR_STATUS = {
  missing_api_key: 401,
  invalid_api_key: 401,
  // Defined by the spec and mapped, but never emitted: revoked keys yield invalid_api_key.
  revoked_api_key: 401,
  quota_exceeded: 429,
  rate_limited: 429,
  not_found: 404,
  invalid_parameter: 400,
  unsupported_language: 400,
  internal_error: 500,
  // Beyond the spec's table: requests that break HTTP's own rules, before any operation is involved.
  /** Framing that cannot be trusted (RFC 9112 §6.3), or two Host lines (§3.2); the connection is closed. */
  bad_request: 400,
  /** A method the service implements for no resource (RFC 9110 §15.6.2), or a transfer coding it cannot decode. */
  not_implemented: 501,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** Messages the spec fixes verbatim. */
export const MISSING_API_KEY_MESSAGE =
  'No API key supplied. Send your key in the X-API-Key header. Get a free key at /developers.';
export const INVALID_API_KEY_MESSAGE = 'That API key is not valid, has been revoked, or has expired.';
export const INTERNAL_ERROR_MESSAGE = 'Something went wrong while handling the request. Please try again later.';

export interface QuotaDetails {
  plan: string;
  endpoint: string;
  used: number;
  limit: number;
}

/** Carries no stack trace (see AnswerError): an unexpected fault is logged with the stack of its own error. */
export class ApiError extends AnswerError {
  override readonly name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: QuotaDetails,
    /** Extra response headers the error carries (Retry-After). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  toBody(): { error: { code: ErrorCode; message: string; details?: QuotaDetails } } {
    return this.details
      ? { error: { code: this.code, message: this.message, details: this.details } }
      : { error: { code: this.code, message: this.message } };
  }
}

export const missingApiKey = (): ApiError => new ApiError('missing_api_key', MISSING_API_KEY_MESSAGE);
export const invalidApiKey = (): ApiError => new ApiError('invalid_api_key', INVALID_API_KEY_MESSAGE);
export const internalError = (): ApiError => new ApiError('internal_error', INTERNAL_ERROR_MESSAGE);
export const invalidParameter = (name: string, problem: string): ApiError =>
  new ApiError('invalid_parameter', `Invalid parameter '${name}': ${problem}`);
export const notFound = (message: string): ApiError => new ApiError('not_found', message);
