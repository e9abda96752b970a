// GET /downloads/{name}: one gzipped JSON Lines file, or the CSV beside it, of the snapshot this worker serves,
// streamed from disk.
import { notFound } from '../../shared/errors.ts';
import { DOWNLOADS_INDEX_NAME, DOWNLOADS_PATH } from '../../../snapshot/format/downloads.ts';
import { ifNoneMatchHits } from '../http/etag.ts';
import { DOWNLOAD_FILE_CACHE_CONTROL } from '../http/headers.ts';
import { NO_DOWNLOADS_MESSAGE } from './downloads.list.ts';

import type { PipelineRequest } from '../http/exchange.ts';
import type { ApiHandler, ApiRoute, RouteSetup } from '../http/route.ts';

/** Not metered, like the website. Only a name the index lists is served, so no path can reach another file. */
export const downloadsGet: ApiRoute = {
  kind: 'api',
  method: 'GET',
  path: `${DOWNLOADS_PATH}/{name}`,
  streams: true,
  handler: downloadHandler,
};

function downloadHandler({ deps }: RouteSetup): ApiHandler<PipelineRequest> {
  const downloads = deps.snapshot.downloads?.();
  const version = downloads?.index?.version;
  return (req, res, ctx) => {
    if (!downloads?.index) throw notFound(NO_DOWNLOADS_MESSAGE);
    // The segment comes still percent-encoded; the index's names need no encoding, so an encoded name is not
    // one of them.
    const download = downloads.file(req.path_parameters.name ?? '');
    if (!download) {
      throw notFound(`No such file in this edition (${version}). The files are listed at ${DOWNLOADS_PATH}/${DOWNLOADS_INDEX_NAME}.`);
    }
    const { etag } = download;
    res.header('cache-control', DOWNLOAD_FILE_CACHE_CONTROL);
    res.header('etag', etag);
    if (ifNoneMatchHits(req.headers['if-none-match'], etag)) {
      ctx.status = 304;
      res.status(304).send();
      return;
    }
    // The stored bytes as they are: a file to save, not a body to decode (no Content-Encoding; a gzip file
    // stays one, and a CSV goes as written, to open in a spreadsheet).
    res.header('content-type', download.contentType);
    res.header('content-disposition', `attachment; filename="${download.name}"`);
    res.header('x-content-type-options', 'nosniff');
    const chunks = download.read();
    // hyper-express's stream() never settles once the stream stops early (it destroys it when the client goes
    // away; a read may fail): the request ends on those events instead, so that shutdown does not wait for it.
    return new Promise<void>((resolve, reject) => {
      res.once('abort', () => resolve());
      chunks.once('error', (error) => {
        // The status line and headers are out: cutting the connection is the only way to say it failed.
        deps.log.error({ msg: 'download read failed', file: download.name, error: error.message });
        res.close();
        resolve();
      });
      // Typed as void, it returns the promise of the last chunk sent (hyper-express 6.14, Response.js).
      const sent: unknown = res.stream(chunks, download.bytes);
      Promise.resolve(sent).then(() => resolve(), reject);
    });
  };
}
