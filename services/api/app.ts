// Builds the API worker's HTTP app: API routes, the website, CORS preflight, not-found and error handlers.
import { performance } from 'node:perf_hooks';

import { Server } from 'hyper-express';

import { ApiError, notFound } from '../shared/errors.ts';
import { NOSNIFF, PREFLIGHT_HEADERS } from './http/headers.ts';
import { answerHeadLikeGet, installHyperExpressAdapter } from './http/hyper-express-adapter.ts';
import { inFlightOf, logRequest, pipeline, writeError } from './http/pipeline.ts';
import { registerDevelopersCreate } from './routes/developers.create.ts';
import { registerDownloadsGet } from './routes/downloads.get.ts';
import { registerDownloadsList } from './routes/downloads.list.ts';
import { registerHealthz } from './routes/healthz.get.ts';
import { registerLanguagesList } from './routes/languages.list.ts';
import { registerOpenApiGet } from './routes/openapi.get.ts';
import { registerStatsGet } from './routes/stats.get.ts';
import { registerWordOfTheDay } from './routes/word-of-the-day.get.ts';
import { registerWordsGet } from './routes/words.get.ts';
import { registerWordsSearch } from './routes/words.search.ts';
import { registerWebsite, websiteNotFound } from './web/register.ts';

import type { Deps } from './deps.ts';

/** How long shutdown waits for in-flight requests before closing anyway. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** Shutdown waits this long without any request before closing the remaining (idle) connections. */
export const SHUTDOWN_QUIET_MS = 300;

const isApiPath = (path: string): boolean => path.startsWith('/api/') || path === '/api' || path === '/healthz';

/** The methods some resource of the service answers; any other is a 501 (RFC 9110 §15.6.2). */
const IMPLEMENTED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'OPTIONS']);

export function createApp(deps: Deps): Server {
  const app = new Server({
    // No body is read unless its route sets a max_body_length (the two registration forms): uWS discards the
    // bodies of every other request as they arrive (hyper-express-adapter.ts).
    max_body_length: 0,
    // main.ts owns the signals: it drains in-flight requests before closing.
    auto_close: false,
  });
  const inFlight = inFlightOf(app);
  installHyperExpressAdapter(app, (req, res, error) => {
    const started = performance.now();
    // RFC 9112 §6.3: after a request whose framing is unknown, nothing more on the connection can be trusted.
    writeError(deps, req, res, { route: 'framing', status: 400, close: true }, error);
    logRequest(deps, req.method, 'framing', error.status, started);
  });

  registerWordsSearch(app, deps);
  registerWordsGet(app, deps);
  registerWordOfTheDay(app, deps);
  registerLanguagesList(app, deps);
  registerStatsGet(app, deps);
  registerDevelopersCreate(app, deps);
  registerOpenApiGet(app, deps);
  registerHealthz(app, deps);
  registerDownloadsList(app, deps);
  registerDownloadsGet(app, deps);

  // Registration allows no other origin: without Access-Control-Allow-Origin the browser never sends the
  // POST of a page elsewhere (registerDevelopersCreate refuses the ones that need no preflight).
  app.options('/api/v1/developers', (_req, res) => {
    res.header(NOSNIFF[0], NOSNIFF[1]);
    res.status(204).send();
  });
  // CORS preflight for browsers calling the keyed reads (beyond the contract).
  app.options('/api/*', (_req, res) => {
    for (const [name, value] of Object.entries(PREFLIGHT_HEADERS)) res.header(name, value);
    res.status(204).send();
  });

  registerWebsite(app, deps);
  answerHeadLikeGet(app);

  // Unknown routes answer in the error shape; page addresses get the website's 404 page. A method no resource
  // answers (PUT, DELETE, PATCH, TRACE, CONNECT reach here; uWS closes on names it does not know) is a 501.
  const pageNotFound = websiteNotFound(deps);
  const apiNotFound = pipeline(app, deps, 'not found', () => {
    throw notFound('No such endpoint. The operations are described at /api/v1/openapi.json.');
  });
  const notImplemented = pipeline(app, deps, 'not implemented', (req) => {
    throw new ApiError('not_implemented', `The method ${req.method} is not implemented: use GET, HEAD, POST or OPTIONS.`);
  });
  app.set_not_found_handler((req, res) => {
    if (!IMPLEMENTED_METHODS.has(req.method)) return notImplemented(req, res);
    return isApiPath(req.path) ? apiNotFound(req, res) : pageNotFound(req, res);
  });

  // Errors that escape a handler outside the API pipeline (the pipeline catches its own).
  app.set_error_handler((req, res, error) =>
    writeError(deps, req, res, { route: 'unhandled', status: 500, close: inFlight.draining }, error),
  );
  return app;
}

/**
 * Graceful stop: no new connections; requests on open keep-alive connections are still served but close
 * their connection; once quiet (or after the grace period) the idle connections are closed too, so that
 * clients reconnect to another worker on the port instead of meeting a dead socket.
 */
export async function closeApp(app: Server, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  const inFlight = inFlightOf(app);
  inFlight.draining = true;
  app.close();
  await inFlight.quiet(Math.min(SHUTDOWN_QUIET_MS, graceMs), graceMs);
  // uWS's App.close() (not in its typings) closes every remaining socket of the app.
  (app.uws_instance as unknown as { close?: () => void }).close?.();
}
