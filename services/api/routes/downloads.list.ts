// GET /downloads/index.json: the open-data files of the snapshot this worker serves, as the build listed them.
import { notFound } from '../../shared/errors.ts';
import { DOWNLOADS_INDEX_NAME, DOWNLOADS_PATH } from '../../../snapshot/format/downloads.ts';
import { ifNoneMatchHits } from '../http/etag.ts';
import { DOWNLOADS_INDEX_CACHE_CONTROL } from '../http/headers.ts';
import { sendJson } from '../http/pipeline.ts';

import type { ApiRoute } from '../http/route.ts';

export const NO_DOWNLOADS_MESSAGE = 'This edition of the dictionary has no downloads.';

/** Not metered, like the website: anyone may take the data. */
export const downloadsList: ApiRoute = {
  kind: 'api',
  method: 'GET',
  path: `${DOWNLOADS_PATH}/${DOWNLOADS_INDEX_NAME}`,
  handler: ({ deps }) => {
    const downloads = deps.snapshot.downloads?.();
    return (req, res, ctx) => {
      if (!downloads?.index) throw notFound(NO_DOWNLOADS_MESSAGE);
      res.header('cache-control', DOWNLOADS_INDEX_CACHE_CONTROL);
      res.header('etag', downloads.indexEtag);
      if (ifNoneMatchHits(req.headers['if-none-match'], downloads.indexEtag)) {
        ctx.status = 304;
        res.status(304).send();
        return;
      }
      sendJson(res, ctx, 200, downloads.indexBody);
    };
  },
};
