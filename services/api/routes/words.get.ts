// GET /api/v1/words/{id}: one full entry by integer id or slug, sent as the string stored at build time.
import { z } from 'zod';

import { notFound } from '../../shared/errors.ts';
import { Lru } from '../../shared/lru.ts';
import { snapshotEtag } from '../http/etag.ts';
import { ENTRY_CACHE_CONTROL } from '../http/headers.ts';
import { registerMeteredGet, storedHeaders, storedReply } from '../http/metered-get.ts';
import { decodePathParam } from '../http/params.ts';

import type { Deps } from '../deps.ts';
import type { Server } from 'hyper-express';

/** Longer than any slug; anything longer cannot match and is not looked up. */
export const ID_MAX_CHARS = 200;
/** Hot entry bodies kept per worker (a few kB each): popular words skip the SQLite lookup. */
const ENTRY_CACHE_ENTRIES = 4_096;

export const wordsGetParamsSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(ID_MAX_CHARS)
    .describe('The entry id (an integer, e.g. 1042) or its slug (e.g. ile-2), percent-encoded in the path.'),
});
export type WordsGetParams = z.infer<typeof wordsGetParamsSchema>;

export function registerWordsGet(app: Server, deps: Deps): void {
  const etag = snapshotEtag(deps.snapshot.meta);
  const headers = storedHeaders([['cache-control', ENTRY_CACHE_CONTROL], ['etag', etag]]);
  // Keyed by the raw path parameter: a hit skips decoding, validation and the SQLite lookup.
  const cache = new Lru<Buffer>(ENTRY_CACHE_ENTRIES, { secondSighting: true });
  const missing = (): Error => notFound('No entry matches that id or slug.');

  registerMeteredGet(app, deps, {
    pattern: '/api/v1/words/:id',
    route: 'GET /api/v1/words/:id',
    endpoint: 'GET /api/v1/words/{id}',
    handle: (req) => {
      const raw = req.params[0];
      let body = cache.get(raw);
      if (body === undefined) {
        // Spec: this route answers 404 for anything that names no entry, a broken encoding included.
        const parsed = wordsGetParamsSchema.safeParse({ id: decodePathParam(raw) });
        if (!parsed.success) throw missing();
        const json = deps.snapshot.entryJson(parsed.data.id);
        if (json === undefined) throw missing();
        body = Buffer.from(json);
        cache.set(raw, body);
      }
      return storedReply(req, body, etag, headers);
    },
  });
}
