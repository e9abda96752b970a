// GET /api/v1/words/{id}: one full entry by integer id or slug, sent as the string stored at build time.
import { z } from 'zod';

import { notFound } from '../../shared/errors.ts';
import { Lru } from '../../shared/lru.ts';
import { EntrySchema } from '../../shared/schemas.ts';
import { CompressedBody } from '../http/compression.ts';
import { snapshotEtag } from '../http/etag.ts';
import { ENTRY_CACHE_CONTROL } from '../http/headers.ts';
import { decodePathParam } from '../http/params.ts';
import { registerQueryCache } from '../http/query-keys.ts';
import { representations, storedReply } from '../http/representations.ts';
import { ETAG_HEADERS, METERED_ERRORS, NOT_FOUND, NOT_MODIFIED } from '../openapi/components.ts';

import type { MeteredGetHandler } from '../http/metered-get.ts';
import type { MeteredRoute, RouteSetup } from '../http/route.ts';

/** Longer than any slug; anything longer cannot match and is not looked up. */
export const ID_MAX_CHARS = 200;
/**
 * Hot entry bodies kept per worker (a few kB each): popular words skip the SQLite lookup, and only these are
 * compressed (once per coding, kept with them); an entry on its first sighting goes as it is.
 */
const ENTRY_CACHE_ENTRIES = 4_096;

export const wordsGetParamsSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(ID_MAX_CHARS)
    .describe('The entry id (an integer) or its slug (the URL name of the entry), percent-encoded in the path.'),
});
export type WordsGetParams = z.infer<typeof wordsGetParamsSchema>;

export const wordsGet: MeteredRoute = {
  kind: 'metered',
  method: 'GET',
  path: '/api/v1/words/{id}',
  endpoint: 'GET /api/v1/words/{id}',
  request: { params: wordsGetParamsSchema },
  openapi: {
    operationId: 'getWord',
    tags: ['words'],
    summary: 'Fetch one entry in full by id or slug',
    responses: {
      200: { description: 'The full entry.', headers: ETAG_HEADERS, body: EntrySchema },
      304: NOT_MODIFIED,
      404: NOT_FOUND,
      ...METERED_ERRORS,
    },
  },
  handler: entryHandler,
};

/**
 * The one spelling of an id or slug that keys the cache: decoded, and an integer id without leading zeros. Keyed
 * by the raw text, each percent-encoded alias of a large entry would hold a copy of its body.
 */
export function canonicalEntryId(decoded: string): string {
  return /^\d{1,16}$/.test(decoded) ? String(Number(decoded)) : decoded;
}

function entryHandler({ deps, app }: RouteSetup): MeteredGetHandler {
  const etag = snapshotEtag(deps.snapshot.meta);
  const reps = representations([['cache-control', ENTRY_CACHE_CONTROL]], etag);
  const cache = new Lru<CompressedBody>(ENTRY_CACHE_ENTRIES, { secondSighting: true });
  registerQueryCache(app, 'entries', cache as Lru<unknown>);
  const missing = (): Error => notFound('No entry matches that id or slug.');
  return (req) => {
    const raw = req.params[0];
    // A parameter without escapes is already decoded (the usual request): a hit skips decoding and the lookup.
    const plain = !raw.includes('%');
    const fast = plain ? cache.get(raw) : undefined;
    if (fast !== undefined) return storedReply(req, fast, reps);
    // Spec: this route answers 404 for anything that names no entry, a broken encoding included.
    const parsed = wordsGetParamsSchema.safeParse({ id: decodePathParam(raw) });
    if (!parsed.success) throw missing();
    const id = canonicalEntryId(parsed.data.id);
    const kept = id === raw ? undefined : cache.get(id);
    if (kept !== undefined) return storedReply(req, kept, reps);
    const json = deps.snapshot.entryJson(id);
    if (json === undefined) throw missing();
    const body = new CompressedBody(Buffer.from(json));
    return storedReply(req, cache.set(id, body) ? body : body.identity, reps);
  };
}
