// The API's types: the records generated from the OpenAPI description (generated/openapi.ts), completed with
// what the routes answer and the description deliberately leaves out (the contract's Versioning rule 3, and the
// registration reply that the description types as an object without fields).
import type { components, operations } from './generated/openapi.ts';

type Schemas = components['schemas'];

export type WordSummary = Schemas['WordSummary'];
export type Entry = Schemas['Entry'];
export type WordOfTheDay = Schemas['WordOfTheDay'];
export type Language = Schemas['Language'];
export type Languages = Schemas['Languages'];
export type Stats = Schemas['Stats'];
export type PartOfSpeech = WordSummary['partOfSpeech'];
export type MatchType = WordSummary['matchType'];

/**
 * What search puts in `diagnostics` (the description leaves its keys open): `truncated` when ranking stopped
 * at `rankedLimit` results, in which case `total` is `rankedLimit` and a narrower query finds the rest;
 * `suggestions` when the query found few entries and none spelt as it: near headwords and forms, nearest first.
 */
export interface SearchDiagnostics {
  truncated?: boolean;
  rankedLimit?: number;
  suggestions?: SearchSuggestion[];
  [key: string]: unknown;
}

/** A "did you mean": the form as the dictionary writes it, the q that finds it, its language, its edit distance (1 or 2). */
export interface SearchSuggestion {
  text: string;
  query: string;
  language: string;
  distance: number;
}

/** The paginated words envelope; page through it with the same query until `hasMore` is false. */
export type WordsPage = Omit<Schemas['WordsPage'], 'diagnostics'> & { diagnostics?: SearchDiagnostics };

/** The error body every failure carries. */
export type ErrorBody = Schemas['Error'];
/** The spec's stable error codes. */
export type ErrorCode = ErrorBody['error']['code'];
/** Set on quota_exceeded only. */
export type QuotaDetails = NonNullable<ErrorBody['error']['details']>;

/** Query of GET /api/v1/words. `page` goes up to 10,000 (a bound of the route, absent from the description). */
export type SearchWordsQuery = NonNullable<operations['searchWords']['parameters']['query']>;
/** Query of GET /api/v1/word-of-the-day. */
export type WordOfTheDayQuery = NonNullable<operations['getWordOfTheDay']['parameters']['query']>;

/** The registration body: the description's fields plus `keyName`, which the route reads and the description omits. */
export type RegistrationRequest = operations['createDeveloper']['requestBody']['content']['application/json'] & {
  /** The key's display name; default `default`. */
  keyName?: string;
};

export type Plan = 'free' | 'team' | 'institution';

export interface Developer {
  /** Opaque identifier. */
  id: string;
  name: string;
  /** Lower-cased by the service. */
  email: string;
  /** Always `free` on creation. */
  plan: Plan;
}

/** The 201 reply of POST /api/v1/developers, which the description types as an object without fields. */
export interface Registration {
  developer: Developer;
  /** The plaintext key (`svc_live_` and 40 hex characters), returned this once only: store it now. */
  apiKey: string;
  /** The first 17 characters of the key, kept in clear by the service to name the key. */
  keyPrefix: string;
  /** Fixed text telling the caller to store the key now. */
  warning: string;
  /** Fixed text saying to send the key as X-API-Key. */
  usage: string;
}

/**
 * The codes POST /api/v1/developers answers: 429 is `rate_limited` with Retry-After: 900 (the description lists
 * the shared quota_exceeded response), and 500 `internal_error` is possible (the description lists no 500).
 */
export type RegistrationErrorCode = Extract<ErrorCode, 'invalid_parameter' | 'rate_limited' | 'internal_error'>;

/** The parts of the OpenAPI 3.1.0 description a client reads; the rest is kept as served. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; [key: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The X-RateLimit-* headers of a metered response. */
export interface RateLimit {
  /** The key's daily limit for this endpoint. */
  limit: number;
  /** Requests left today (UTC) for this key and endpoint. */
  remaining: number;
  /** This request's number within the key's day for this endpoint. */
  used: number;
}

/** A successful response: its parsed body, status, headers and the rate-limit headers when it is metered. */
export interface ApiResult<T> {
  body: T;
  status: number;
  headers: Headers;
  /** Null on the unmetered operations (registration, the OpenAPI description). */
  rateLimit: RateLimit | null;
}
