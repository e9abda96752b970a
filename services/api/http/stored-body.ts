// The handler of a metered GET that answers with one body fixed for the snapshot (languages, stats): encoded
// once at start, compressed once per coding on first use, sent with its ETag and 304.
import { CompressedBody } from './compression.ts';
import { snapshotEtag } from './etag.ts';
import { representations, storedReply } from './representations.ts';

import type { Deps } from '../deps.ts';
import type { MeteredGetHandler } from './metered-get.ts';

export function storedBodyHandler(deps: Deps, json: string, cacheControl: string): MeteredGetHandler {
  const etag = snapshotEtag(deps.snapshot.meta);
  const body = new CompressedBody(Buffer.from(json));
  const reps = representations([['cache-control', cacheControl]], etag);
  return (req) => storedReply(req, body, reps);
}
