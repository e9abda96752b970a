// GET /api/v1/stats: the totals object, one stored body.
import { z } from 'zod';

import { ifNoneMatchHits, snapshotEtag } from '../http/etag.ts';
import { LISTING_CACHE_CONTROL } from '../http/headers.ts';
import { metered } from '../http/metered.ts';
import { pipeline, sendJson, sendNotModified } from '../http/pipeline.ts';

import type { Deps } from '../deps.ts';
import type { Server } from 'hyper-express';

/** Takes no parameters (spec: no page or limit); unknown query parameters are ignored. */
export const statsGetQuerySchema = z.object({});
export type StatsGetQuery = z.infer<typeof statsGetQuerySchema>;

export function registerStatsGet(app: Server, deps: Deps): void {
  const etag = snapshotEtag(deps.snapshot.meta);
  // Fixed for the snapshot: read and encoded once.
  const body = Buffer.from(deps.snapshot.statsJson());
  app.get(
    '/api/v1/stats',
    pipeline(
      app,
      deps,
      'GET /api/v1/stats',
      metered(deps, 'GET /api/v1/stats', (req, res, ctx) => {
        res.header('cache-control', LISTING_CACHE_CONTROL);
        res.header('etag', etag);
        if (ifNoneMatchHits(req.headers['if-none-match'], etag)) return sendNotModified(res, ctx, body);
        sendJson(res, ctx, 200, body);
      }),
    ),
  );
}
