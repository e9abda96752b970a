// A metered GET that answers with one body fixed for the snapshot (languages, stats): encoded once at start,
// sent as it is, with its ETag and 304.
import { ifNoneMatchHits, snapshotEtag } from './etag.ts';
import { metered } from './metered.ts';
import { pipeline, sendJson, sendNotModified } from './pipeline.ts';

import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { Deps } from '../deps.ts';
import type { Server } from 'hyper-express';

export function registerStoredBody(
  app: Server,
  deps: Deps,
  endpoint: MeteredEndpoint,
  json: string,
  cacheControl: string,
): void {
  const etag = snapshotEtag(deps.snapshot.meta);
  const body = Buffer.from(json);
  const path = endpoint.slice('GET '.length);
  app.get(
    path,
    pipeline(
      app,
      deps,
      endpoint,
      metered(deps, endpoint, (req, res, ctx) => {
        res.header('cache-control', cacheControl);
        res.header('etag', etag);
        if (ifNoneMatchHits(req.headers['if-none-match'], etag)) return sendNotModified(res, ctx, body);
        sendJson(res, ctx, 200, body);
      }),
    ),
  );
}
