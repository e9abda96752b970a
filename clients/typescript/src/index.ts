// A typed client for the dictionary API: the operations, their types, the error type and the 429 waiting rule.
export { DEFAULT_MAX_WAITS, DictionaryClient, PAGING_LIMIT } from './client.ts';
export { DictionaryApiError } from './errors.ts';
export { msUntilUtcMidnight, RATE_LIMITED_WAIT_SECONDS, retryAfterMs, waitAfter429 } from './wait.ts';

export type { CallOptions, ClientOptions } from './client.ts';
export type { ClientErrorCode, DictionaryApiErrorInit } from './errors.ts';
/** The description's types as generated, for what the client's own types do not name. */
export type { components, operations, paths } from './generated/openapi.ts';
export type { WaitInfo } from './request.ts';
export type * from './types.ts';
export type { WaitableCode } from './wait.ts';
