// Builds the API worker's HTTP app from the route descriptors (routes.ts), with the not-found and error handlers.
import { Server } from 'hyper-express';

import { ApiError, notFound } from '../shared/errors.ts';
import { inFlightOf } from './http/in-flight.ts';
import { ResponseBuffers } from './http/response-buffers.ts';
import { apiPipeline, pagePipeline, writeError } from './http/pipeline.ts';
import { wireRoutes } from './http/wire.ts';
import { ROUTES } from './routes.ts';
import { pageGuard } from './web/page-guard.ts';
import { pageFailure, websiteNotFound } from './web/site-errors.ts';

import type { Deps } from './deps.ts';

/** How long shutdown waits for in-flight requests before closing anyway. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** Shutdown waits this long without any request before closing the remaining (idle) connections. */
export const SHUTDOWN_QUIET_MS = 300;

/** The metrics' route name of the website's 404 page (an address no route answers, outside /api). */
export const WEBSITE_NOT_FOUND_ROUTE = 'website not found';

const isApiPath = (path: string): boolean => path.startsWith('/api/') || path === '/api' || path === '/healthz';

/** The methods some resource of the service answers; any other is a 501 (RFC 9110 §15.6.2). */
const IMPLEMENTED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'OPTIONS']);

/**
 * hyper-express refuses a body over this with an empty 413, and only once it has read all of it. No route it
 * serves reads a body through it: the adapter takes over every request that declares one (reading it, capped,
 * for the routes with a body limit), so hyper-express is never to refuse one itself.
 */
const NO_BODY_LIMIT = Number.MAX_SAFE_INTEGER;

export function createApp(deps: Deps): Server {
  const app = new Server({
    max_body_length: NO_BODY_LIMIT,
    // main.ts owns the signals: it drains in-flight requests before closing.
    auto_close: false,
  });
  deps.responseBuffers ??= new ResponseBuffers({ stallMs: deps.config.responseStallMs, maxBytes: deps.config.responseBufferBytes });
  const inFlight = inFlightOf(app);
  const pageFailed = pageFailure(deps);
  const guard = pageGuard(deps);
  wireRoutes(app, deps, ROUTES, pageFailed, guard);

  // Unknown routes answer in the error shape; page addresses get the website's 404 page. A method no resource
  // answers (PUT, DELETE, PATCH, TRACE, CONNECT reach here; uWS closes on names it does not know) is a 501.
  const pageNotFound = pagePipeline(deps, WEBSITE_NOT_FOUND_ROUTE, websiteNotFound(deps), pageFailed, { guard });
  const apiNotFound = apiPipeline(app, deps, 'not found', () => {
    throw notFound('No such endpoint. The operations are described at /api/v1/openapi.json.');
  });
  const notImplemented = apiPipeline(app, deps, 'not implemented', (req) => {
    throw new ApiError('not_implemented', `The method ${req.method} is not implemented: use GET, HEAD, POST or OPTIONS.`);
  });
  app.set_not_found_handler((req, res) => {
    if (!IMPLEMENTED_METHODS.has(req.method)) return notImplemented(req, res);
    return isApiPath(req.path) ? apiNotFound(req, res) : pageNotFound(req, res);
  });

  // Errors that escape a handler outside the pipeline (the pipeline catches its own).
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
