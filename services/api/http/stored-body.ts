// A metered GET that answers with one body fixed for the snapshot (languages, stats): encoded once at start,
// compressed once per coding on first use, sent with its ETag and 304.
import { CompressedBody } from './compression.ts';
import { snapshotEtag } from './etag.ts';
import { registerMeteredGet } from './metered-get.ts';
import { representations, storedReply } from './representations.ts';

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
  const body = new CompressedBody(Buffer.from(json));
  const reps = representations([['cache-control', cacheControl]], etag);
  const pattern = endpoint.slice('GET '.length);
  registerMeteredGet(app, deps, { pattern, route: endpoint, endpoint, handle: (req) => storedReply(req, body, reps) });
}
