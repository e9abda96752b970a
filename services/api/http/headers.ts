// Response header values shared by the routes, computed once, and the one-call form the metered routes send.

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Spec (GET /api/v1/words): exactly this value. */
export const SEARCH_CACHE_CONTROL = 'public, s-maxage=300, stale-while-revalidate=600';
/** Entries change only with a new snapshot: longer windows than search (spec). */
export const ENTRY_CACHE_CONTROL = 'public, max-age=3600, s-maxage=86400, stale-while-revalidate=604800';
/** Languages and stats: small, change only with a snapshot. */
export const LISTING_CACHE_CONTROL = 'public, max-age=300, s-maxage=3600, stale-while-revalidate=86400';
export const OPENAPI_CACHE_CONTROL = 'public, max-age=300, s-maxage=3600';
/** The downloads index: it names the files of the snapshot a worker serves, which a publish changes. */
export const DOWNLOADS_INDEX_CACHE_CONTROL = 'public, max-age=300';
/** A download: its name carries the snapshot version, so its bytes never change. */
export const DOWNLOAD_FILE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Errors, registrations and health are never cached. */
export const NO_STORE = 'no-store';

/**
 * CORS for browsers (beyond the contract): any origin may read the keyed GETs, with the headers clients
 * branch on. Not on POST /api/v1/developers: a page elsewhere must not read a key its visitor's browser was
 * issued (see same-origin.ts).
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, Content-Range, Retry-After, ETag',
};
/** The same as [name, value] pairs, for the writers that put them on every response. */
export const CORS_HEADER_ENTRIES: readonly (readonly [string, string])[] = Object.entries(CORS_HEADERS);

/** Browsers must not guess another type for a JSON body (a key echoed in one, a hostile string in another). */
export const NOSNIFF: readonly [string, string] = ['x-content-type-options', 'nosniff'];

/** What every API response carries (encoded once into the metered routes' header blocks). */
export const API_HEADER_ENTRIES: readonly (readonly [string, string])[] = [...CORS_HEADER_ENTRIES, NOSNIFF];

/** Preflight of the keyed reads: the only cross-origin calls the API answers. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, OPTIONS',
  'access-control-allow-headers': 'X-API-Key, Authorization, Content-Type, If-None-Match',
  /** Browsers cap this (Chrome at 2 h); one day is the common ask. */
  'access-control-max-age': '86400',
  [NOSNIFF[0]]: NOSNIFF[1],
};

/** A header name: an RFC 9110 token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value we write: visible ASCII, spaces and tabs; never CR or LF. */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Several response headers encoded once, for a single uWS `writeHeader(name, value)` call. uWS writes each
 * header as `name: value\r\n` without looking at either, so a value that goes on with `\r\nname: value`
 * writes the following headers in the same call. Each call converts its JS strings to UTF-8 and crosses into
 * C++: a metered response's eight headers in eight calls would be one of the largest costs a lookup has in the
 * worker beyond the kernel's. The bench's raw uWS ceiling writes its headers the same way.
 */
export interface HeaderBlock {
  readonly name: Buffer;
  readonly value: Buffer;
}

/**
 * Encodes `pairs` (at least one) as one HeaderBlock. Only names and values this code chose go in, and each is
 * checked here: a CR or LF refused at start-up can never split a header on the wire.
 */
export function headerBlock(pairs: readonly (readonly [string, string])[]): HeaderBlock {
  if (pairs.length === 0) throw new Error('a header block needs at least one header');
  const [[first, value], ...rest] = pairs;
  checkHeader(first, value);
  let name = NAMES.get(first);
  if (name === undefined) {
    name = outsidePool(first);
    NAMES.set(first, name);
  }
  return { name, value: outsidePool(value + headerLines(rest)) };
}

/**
 * `block` followed by `pairs`, checked the same way: for a route whose constant headers are encoded once at
 * start-up while one or two vary per response (a search page's Content-Range), so that only those are built
 * and checked per page. The bytes are a slice of Buffer's shared pool, cheap for a block sent once: a block
 * kept beyond its response must be copied out with ownBlock.
 */
export function extendBlock(block: HeaderBlock, pairs: readonly (readonly [string, string])[]): HeaderBlock {
  const lines = headerLines(pairs);
  const value = Buffer.allocUnsafe(block.value.length + lines.length);
  block.value.copy(value);
  value.write(lines, block.value.length, 'latin1');
  return { name: block.name, value };
}

/** The block with bytes of its own (see outsidePool), to be kept. */
export function ownBlock(block: HeaderBlock): HeaderBlock {
  return { name: block.name, value: ownBytes(block.value) };
}

/** `\r\nname: value` for each pair, each checked. */
function headerLines(pairs: readonly (readonly [string, string])[]): string {
  let lines = '';
  for (const [name, value] of pairs) {
    checkHeader(name, value);
    lines += `\r\n${name}: ${value}`;
  }
  return lines;
}

function checkHeader(name: string, value: string): void {
  if (!TOKEN.test(name)) throw new Error(`not a header name: ${JSON.stringify(name)}`);
  if (!FIELD_VALUE.test(value)) throw new Error(`not a header value for ${name}: ${JSON.stringify(value)}`);
}

/** Encoded first names, shared by every block (a closed set: the names this code writes). */
const NAMES = new Map<string, Buffer>();

/**
 * Bytes of their own, not a slice of Buffer's shared 8 KB pool: a search page's block lives as long as the
 * page in the worker's cache, and a slice would keep its whole slab alive with it.
 */
function outsidePool(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(text.length);
  bytes.write(text, 'latin1');
  return bytes;
}

/** A copy of `bytes` outside the pool (see outsidePool): for bytes kept that lie in a pool or a scratch buffer. */
export function ownBytes(bytes: Buffer): Buffer {
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

/** A route's own headers for a 200, with CORS, nosniff and Content-Type, encoded once (a cached page keeps its own). */
export function replyHeaders(own: readonly (readonly [string, string])[]): HeaderBlock {
  return headerBlock([...API_HEADER_ENTRIES, ...own, ['content-type', JSON_CONTENT_TYPE]]);
}

/** A stored body's headers for its 200 and for its 304, which carries no body and so no Content-Type. */
export interface StoredHeaders {
  readonly ok: HeaderBlock;
  readonly notModified: HeaderBlock;
}

export function storedHeaders(own: readonly (readonly [string, string])[]): StoredHeaders {
  return { ok: replyHeaders(own), notModified: headerBlock([...API_HEADER_ENTRIES, ...own]) };
}
