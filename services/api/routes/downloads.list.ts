// GET /downloads/index.json: the open-data files of the snapshot this worker serves, as the build listed them.
import { notFound } from '../../shared/errors.ts';
import { DOWNLOADS_INDEX_NAME, DOWNLOADS_PATH } from '../../../snapshot/format/downloads.ts';
import { ifNoneMatchHits } from '../http/etag.ts';
import { DOWNLOADS_INDEX_CACHE_CONTROL } from '../http/headers.ts';
import { pipeline, sendJson } from '../http/pipeline.ts';

import type { Deps } from '../deps.ts';
import type { Server } from 'hyper-express';

export const NO_DOWNLOADS_MESSAGE = 'This edition of the dictionary has no downloads.';

/** Not metered, like the website: anyone may take the data. */
export function registerDownloadsList(app: Server, deps: Deps): void {
  const downloads = deps.snapshot.downloads?.();
  const route = `GET ${DOWNLOADS_PATH}/${DOWNLOADS_INDEX_NAME}`;
  app.get(
    `${DOWNLOADS_PATH}/${DOWNLOADS_INDEX_NAME}`,
    pipeline(app, deps, route, (req, res, ctx) => {
      if (!downloads?.index) throw notFound(NO_DOWNLOADS_MESSAGE);
      res.header('cache-control', DOWNLOADS_INDEX_CACHE_CONTROL);
      res.header('etag', downloads.indexEtag);
      if (ifNoneMatchHits(req.headers['if-none-match'], downloads.indexEtag)) {
        ctx.status = 304;
        res.status(304).send();
        return;
      }
      sendJson(res, ctx, 200, downloads.indexBody);
    }),
  );
}
