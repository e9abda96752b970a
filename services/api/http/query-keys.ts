// What the metered routes that read a query string key their caches by: the parsed, known parameters, and the
// query text only when it spells nothing else. Keyed by any text, a client could fill a worker's caches with
// padded copies of one query (each key held as long as the page it names).
import { invalidParameter } from '../../shared/errors.ts';

import type { Lru } from '../../shared/lru.ts';
import type { Server } from 'hyper-express';

/**
 * Longest query string a route reads: q of 200 characters percent-encoded as UTF-8 is at most 1,800 (9 per
 * UTF-16 unit), and the other parameters are short. uWS parses a head that arrives in one read up to about
 * 512 KiB, so the route bounds what it parses and keeps itself.
 */
export const MAX_QUERY_STRING_CHARS = 2048;

/** Refuses a query string over the bound before it is parsed (spec: invalid_parameter names the parameter). */
export function checkQueryLength(query: string): void {
  if (query.length > MAX_QUERY_STRING_CHARS) {
    throw invalidParameter('query', `the query string must be at most ${MAX_QUERY_STRING_CHARS} characters`);
  }
}

/**
 * Whether parsed parameters name only `known` ones, each once: then the raw text may key a cache (it is one of
 * few spellings of a known query, each within MAX_QUERY_STRING_CHARS). Junk parameters or repeated names are
 * answered from the cache keyed by the parsed values instead.
 */
export function spellsKnownParameters(parameters: Record<string, unknown>, known: ReadonlySet<string>): boolean {
  for (const name of Object.keys(parameters)) {
    if (!known.has(name) || typeof parameters[name] !== 'string') return false;
  }
  return true;
}

/** A route's caches, by name, for the tests that check what they hold. */
const cachesByServer = new WeakMap<Server, Map<string, Lru<unknown>>>();

export function registerQueryCache(app: Server, name: string, cache: Lru<unknown>): void {
  let caches = cachesByServer.get(app);
  if (caches === undefined) {
    caches = new Map();
    cachesByServer.set(app, caches);
  }
  caches.set(name, cache);
}

export function queryCachesOf(app: Server): ReadonlyMap<string, Lru<unknown>> {
  return cachesByServer.get(app) ?? new Map();
}
