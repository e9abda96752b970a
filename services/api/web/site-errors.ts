// How the website answers what is not one of its pages: the 404 page for an unknown address, and the error page
// for a page that failed (its stack goes to the log only).
import type { Deps } from '../deps.ts';
import type { PipelineRequest, PipelineResponse } from '../http/exchange.ts';
import type { PageFailure } from '../http/pipeline.ts';
import type { PageHandler } from '../http/route.ts';
import type { AssetUrls } from './layout.ts';
import { notFoundPage } from './pages/not-found.ts';
import { serverErrorPage } from './pages/server-error.ts';
import { CACHE, sendHtml } from './respond.ts';
import { loadStaticFiles } from './static.ts';

/**
 * The website's 404 for any path outside /api (the app's not-found handler calls it for paths that are not API
 * paths, so a mistyped page address gets a page with a search box instead of JSON).
 */
export function websiteNotFound(deps: Deps): PageHandler<PipelineRequest> {
  const assets = loadStaticFiles().urls;
  return (req, res) => sendNotFound(req, res, deps, assets);
}

export function sendNotFound(req: PipelineRequest, res: PipelineResponse, deps: Deps, assets: AssetUrls, slug?: string): void {
  sendHtml(req, res, notFoundPage({ assets, languages: deps.snapshot.languages(), slug }), { status: 404, cache: CACHE.notFound });
}

/** Page errors get an HTML page, not the API's JSON error body. */
export function pageFailure(deps: Deps): PageFailure {
  const assets = loadStaticFiles().urls;
  return (req, res, err) => {
    deps.log.error({ msg: 'website page failed', path: req.path, err: err instanceof Error ? err.stack : String(err) });
    sendHtml(req, res, serverErrorPage(assets), { status: 500, cache: CACHE.noStore });
  };
}
