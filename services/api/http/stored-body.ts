// A metered GET that answers with one body fixed for the snapshot (languages, stats): encoded once at start,
// sent as it is, with its ETag and 304.
import { snapshotEtag } from './etag.ts';
import { registerMeteredGet, storedHeaders, storedReply } from './metered-get.ts';

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
  const headers = storedHeaders([['cache-control', cacheControl], ['etag', etag]]);
  const pattern = endpoint.slice('GET '.length);
  registerMeteredGet(app, deps, { pattern, route: endpoint, endpoint, handle: (req) => storedReply(req, body, etag, headers) });
}
