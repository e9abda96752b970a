// Response header values shared by the routes, computed once.

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Spec (GET /api/v1/words): exactly this value. */
export const SEARCH_CACHE_CONTROL = 'public, s-maxage=300, stale-while-revalidate=600';
/** Entries change only with a new snapshot: longer windows than search (spec). */
export const ENTRY_CACHE_CONTROL = 'public, max-age=3600, s-maxage=86400, stale-while-revalidate=604800';
/** Languages and stats: small, change only with a snapshot. */
export const LISTING_CACHE_CONTROL = 'public, max-age=300, s-maxage=3600, stale-while-revalidate=86400';
export const OPENAPI_CACHE_CONTROL = 'public, max-age=300, s-maxage=3600';
/** Errors, registrations and health are never cached. */
export const NO_STORE = 'no-store';

/** CORS for browsers (beyond the contract): any origin may read, with the headers clients branch on. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, Content-Range, Retry-After, ETag',
};
/** The same as [name, value] pairs, for the writers that put them on every response. */
export const CORS_HEADER_ENTRIES: readonly (readonly [string, string])[] = Object.entries(CORS_HEADERS);

export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'X-API-Key, Authorization, Content-Type, If-None-Match',
  /** Browsers cap this (Chrome at 2 h); one day is the common ask. */
  'access-control-max-age': '86400',
};
