// The request pipeline of the API routes on hyper-express (the metered GETs have their own, metered-get.ts):
// CORS and nosniff headers, error translation, in-flight tracking for graceful shutdown, one structured log line per request.
import { performance } from 'node:perf_hooks';

import { toApiError } from './errors.ts';
import { API_HEADER_ENTRIES, JSON_CONTENT_TYPE, NO_STORE, NOSNIFF } from './headers.ts';

import type { ApiError } from '../../shared/errors.ts';
import type { Deps } from '../deps.ts';
import type { Request, Response, Server } from 'hyper-express';

/** What the pipeline knows about one request; handlers fill in the status and key prefix. */
export interface RequestContext {
  /** Route pattern for the log line, e.g. GET /api/v1/words/:id. */
  readonly route: string;
  status: number;
  keyPrefix?: string;
  /** Set while the worker drains: the response closes its connection so the client moves to another worker. */
  close?: boolean;
}

export type RouteHandler = (req: Request, res: Response, ctx: RequestContext) => void | Promise<void>;

/** Counts requests being handled so that shutdown can wait for them. */
export class InFlight {
  #count = 0;
  #lastActivity = 0;
  /** Once set, every response closes its connection (keep-alive clients reconnect to another worker). */
  draining = false;

  get count(): number {
    return this.#count;
  }
  start(): void {
    this.#count++;
    this.#lastActivity = performance.now();
  }
  end(): void {
    this.#count--;
    this.#lastActivity = performance.now();
  }
  /**
   * Resolves once nothing has been in flight for `quietMs` (requests still arriving on open keep-alive
   * connections get served and told to close), or after `timeoutMs`: a stuck client must not block exit.
   */
  async quiet(quietMs: number, timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      if (this.#count === 0 && performance.now() - this.#lastActivity >= quietMs) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const inFlightByServer = new WeakMap<Server, InFlight>();

/** The in-flight counter of one server (one per app, so that tests can run several apps in one process). */
export function inFlightOf(app: Server): InFlight {
  let inFlight = inFlightByServer.get(app);
  if (!inFlight) {
    inFlight = new InFlight();
    inFlightByServer.set(app, inFlight);
  }
  return inFlight;
}

export interface PipelineOptions {
  /** Send the CORS headers (default): false for a route no page of another origin may read. */
  cors?: boolean;
}

/**
 * Wraps a route handler into a hyper-express handler. A handler that finishes synchronously (OpenAPI,
 * not-found) runs without a promise: the response leaves inside the socket's callback.
 */
export function pipeline(app: Server, deps: Deps, route: string, handler: RouteHandler, options: PipelineOptions = {}) {
  const inFlight = inFlightOf(app);
  const headers = options.cors === false ? [NOSNIFF] : API_HEADER_ENTRIES;
  const finish = (req: Request, ctx: RequestContext, started: number): void => {
    inFlight.end();
    logRequest(deps, req.method, route, ctx.status, started, ctx.keyPrefix);
  };
  return (req: Request, res: Response): void | Promise<void> => {
    const started = performance.now();
    const ctx: RequestContext = { route, status: 200, close: inFlight.draining };
    inFlight.start();
    let pending: void | Promise<void> = undefined;
    try {
      for (const [name, value] of headers) res.header(name, value);
      pending = handler(req, res, ctx);
    } catch (error) {
      writeError(deps, req, res, ctx, error);
    }
    if (pending instanceof Promise) {
      return pending.then(
        () => finish(req, ctx, started),
        (error: unknown) => {
          writeError(deps, req, res, ctx, error);
          finish(req, ctx, started);
        },
      );
    }
    finish(req, ctx, started);
  };
}

/** Sends a JSON body as it is (cached bodies are Buffers: uWS then skips the UTF-8 encoding per send). */
export function sendJson(res: Response, ctx: RequestContext, status: number, body: string | Buffer): void {
  ctx.status = status;
  if (status !== 200) res.status(status);
  res.header('content-type', JSON_CONTENT_TYPE);
  res.send(body, ctx.close);
}

/** The request's count and duration for the metrics, and its log line (method, route, status, duration, key prefix). */
export function logRequest(deps: Deps, method: string, route: string, status: number, started: number, keyPrefix?: string): void {
  const ms = Math.round((performance.now() - started) * 100) / 100;
  deps.stats.request(route, status, ms);
  if (deps.log.request) deps.log.request(method, route, status, ms, keyPrefix);
  else deps.log.info({ msg: 'request', method, route, status, ms, ...(keyPrefix ? { keyPrefix } : {}) });
}

/**
 * The public error for anything a handler threw. Unknown errors are logged with their stack here,
 * server-side only; the client gets the generic internal_error.
 */
export function publicError(deps: Deps, method: string, route: string, error: unknown): ApiError {
  const { apiError, unexpected } = toApiError(error, deps.config.operatorContact);
  if (unexpected) {
    if (isDamagedFile(error)) deps.onSnapshotFault?.(error);
    deps.log.error({
      msg: 'unhandled error',
      method,
      route,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
  }
  return apiError;
}

/** SQLite's codes for a file whose bytes are not what it wrote (the snapshot is the only database a worker reads). */
const isDamagedFile = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
};

/** The one error writer for hyper-express routes: {error: {code, message, details?}}. */
export function writeError(deps: Deps, req: Request, res: Response, ctx: RequestContext, error: unknown): void {
  const apiError = publicError(deps, req.method, ctx.route, error);
  ctx.status = apiError.status;
  if (res.completed) return;
  // Headers already went out: the only honest thing left is to cut the connection.
  if (res.initiated) {
    res.close();
    return;
  }
  res.status(apiError.status);
  res.header('content-type', JSON_CONTENT_TYPE, true);
  res.header('cache-control', NO_STORE, true);
  for (const [name, value] of Object.entries(apiError.headers)) res.header(name, value, true);
  res.send(JSON.stringify(apiError.toBody()), ctx.close);
}
