// Builds the API worker's HTTP app: API routes, the website, CORS preflight, not-found and error handlers.
import { Server } from 'hyper-express';

import { notFound } from '../shared/errors.ts';
import { NOSNIFF, PREFLIGHT_HEADERS } from './http/headers.ts';
import { inFlightOf, pipeline, writeError } from './http/pipeline.ts';
import { registerDevelopersCreate } from './routes/developers.create.ts';
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

/** Bodies of the website's forms. */
const PAGE_MAX_BODY_BYTES = 64 * 1024;

export function createApp(deps: Deps): Server {
  const app = new Server({
    // GET routes never read a body and the website's sign-up form is small: anything larger is refused by
    // hyper-express without buffering it. POST /api/v1/developers sets its own, higher limit so that it can
    // refuse oversized bodies itself, from the headers, in the spec's error shape.
    max_body_length: PAGE_MAX_BODY_BYTES,
    // main.ts owns the signals: it drains in-flight requests before closing.
    auto_close: false,
  });

  registerWordsSearch(app, deps);
  registerWordsGet(app, deps);
  registerWordOfTheDay(app, deps);
  registerLanguagesList(app, deps);
  registerStatsGet(app, deps);
  registerDevelopersCreate(app, deps);
  registerOpenApiGet(app, deps);
  registerHealthz(app, deps);

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

  // Unknown routes and methods answer in the error shape; page addresses get the website's 404 page.
  const pageNotFound = websiteNotFound(deps);
  const apiNotFound = pipeline(app, deps, 'not found', () => {
    throw notFound('No such endpoint. The operations are described at /api/v1/openapi.json.');
  });
  app.set_not_found_handler((req, res) => (isApiPath(req.path) ? apiNotFound(req, res) : pageNotFound(req, res)));

  // Errors that escape a handler outside the API pipeline (the pipeline catches its own).
  app.set_error_handler((req, res, error) =>
    writeError(deps, req, res, { route: 'unhandled', status: 500, close: inFlightOf(app).draining }, error),
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
