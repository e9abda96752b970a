// The one request pipeline of everything but the metered GETs (those have their fast path, metered-get.ts):
// registration, the OpenAPI description, /healthz, downloads, the website and the CORS preflights. hyper-express
// routes the request; the adapter (hyper-express-adapter.ts) takes it over where hyper-express cannot serve it
// (HEAD, a request body, framing in doubt); then the route's handler, one error translation and, for the API's
// routes, the in-flight count and one log line.
import { performance } from 'node:perf_hooks';

import { MeteringUnavailableError } from '../../shared/domain-errors.ts';
import { toApiError } from './errors.ts';
import { failClosedOf } from './fail-closed.ts';
import { hostRefusal } from './host.ts';
import { API_HEADER_ENTRIES, JSON_CONTENT_TYPE, NO_STORE, NOSNIFF } from './headers.ts';
import { adapt } from './hyper-express-adapter.ts';
import { inFlightOf } from './in-flight.ts';

import type { ApiError } from '../../shared/errors.ts';
import type { Deps } from '../deps.ts';
import type { PipelineRequest, PipelineResponse } from './exchange.ts';
import type { ApiHandler, PageHandler } from './route.ts';
import type { Request, Response, Server } from 'hyper-express';
import type { Readable } from 'node:stream';

/** What the pipeline knows about one API request; handlers fill in the status and key prefix. */
export interface RequestContext {
  /** Route name for the log line, e.g. GET /api/v1/words/:id. */
  readonly route: string;
  status: number;
  keyPrefix?: string;
  /** Set while the worker drains: the response closes its connection so the client moves to another worker. */
  close?: boolean;
}

/** What hyper-express calls for a route. */
export type HyperHandler = (req: Request, res: Response) => void | Promise<void>;

export interface ApiPipelineOptions {
  /** Send the CORS headers (default): false for a route no page of another origin may read. */
  cors?: boolean;
  /** The route reads its body, up to this many bytes: its handler gets a BodyRequest. */
  bodyLimitBytes?: number;
  /** The route streams its body: clients that stop reading are dropped (deps.responseBuffers). */
  streams?: boolean;
}

/**
 * An API route's handler as hyper-express calls it: CORS and nosniff headers, errors in the spec's shape, the
 * in-flight count, one log line. A handler that finishes synchronously runs without a promise.
 */
export function apiPipeline<Req extends PipelineRequest>(
  app: Server,
  deps: Deps,
  route: string,
  handler: ApiHandler<Req>,
  options: ApiPipelineOptions = {},
): HyperHandler {
  const inFlight = inFlightOf(app);
  const headers = options.cors === false ? [NOSNIFF] : API_HEADER_ENTRIES;
  const finish = (req: PipelineRequest, ctx: RequestContext, started: number): void => {
    inFlight.end();
    logRequest(deps, req.method, route, ctx.status, started, ctx.keyPrefix);
  };
  return (request, response) => {
    const started = performance.now();
    const exchange = adapt(request, response, options.bodyLimitBytes, options.streams ? deps.responseBuffers : undefined);
    if (exchange.refused) return refuseFraming(deps, exchange.req, exchange.res, exchange.refused, started);
    const misdirected = hostRefusal(deps.config.allowedHosts, exchange.req.headers.host ?? '');
    if (misdirected) return refuseFraming(deps, exchange.req, exchange.res, misdirected, started);
    // adapt gives a BodyRequest exactly when the route has a body limit, as route.ts types its handler.
    const req = exchange.req as Req;
    const { res } = exchange;
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

/** Answers a page that failed (the website's error page); the error is the handler's. */
export type PageFailure = (req: PipelineRequest, res: PipelineResponse, error: unknown) => void;

/** Runs before a page's handler: true when it answered the request itself (a page over its allowance). */
export type PageGuard = (req: PipelineRequest, res: PipelineResponse) => boolean;

export interface PagePipelineOptions {
  /** The route reads its body, up to this many bytes: its handler gets a BodyRequest. */
  bodyLimitBytes?: number;
  /** The website's allowance of pages (web/page-guard.ts); none for files and preflights. */
  guard?: PageGuard;
}

/**
 * A page's (or a preflight's) handler as hyper-express calls it: no API headers, no request log line, but the
 * request counted in the metrics under `route`; a failure is answered by `failed` rather than with the API's
 * JSON error.
 */
export function pagePipeline<Req extends PipelineRequest>(
  deps: Deps,
  route: string,
  handler: PageHandler<Req>,
  failed: PageFailure,
  options: PagePipelineOptions = {},
): HyperHandler {
  return (request, response) => {
    const started = performance.now();
    const exchange = adapt(request, response, options.bodyLimitBytes);
    if (exchange.refused) return refuseFraming(deps, exchange.req, exchange.res, exchange.refused, started);
    const misdirected = hostRefusal(deps.config.allowedHosts, exchange.req.headers.host ?? '');
    if (misdirected) return refuseFraming(deps, exchange.req, exchange.res, misdirected, started);
    const req = exchange.req as Req;
    const res = new StatusRecorder(exchange.res);
    const finish = () => deps.stats.request(route, res.statusCode, Math.round((performance.now() - started) * 100) / 100);
    let pending: void | Promise<void> = undefined;
    try {
      if (options.guard?.(req, res)) return finish();
      pending = handler(req, res);
    } catch (error) {
      failed(req, res, error);
    }
    if (pending instanceof Promise) {
      return pending.catch((error: unknown) => failed(req, res, error)).then(finish);
    }
    finish();
  };
}

/** A response that remembers the status it was given, for the metrics (hyper-express's has no public getter). */
class StatusRecorder implements PipelineResponse {
  statusCode = 200;
  constructor(private readonly res: PipelineResponse) {}
  status(code: number): this {
    this.statusCode = code;
    this.res.status(code);
    return this;
  }
  header(name: string, value: string, overwrite?: boolean): this {
    this.res.header(name, value, overwrite);
    return this;
  }
  send(body?: string | Buffer, closeConnection?: boolean): this {
    this.res.send(body, closeConnection);
    return this;
  }
  stream(readable: Readable, totalBytes: number): unknown {
    return this.res.stream(readable, totalBytes);
  }
  close(): void {
    this.res.close();
  }
  once(event: 'abort', listener: () => void): unknown {
    return this.res.once(event, listener);
  }
  get completed(): boolean {
    return this.res.completed;
  }
  get initiated(): boolean {
    return this.res.initiated;
  }
  get aborted(): boolean {
    return this.res.aborted;
  }
}

/**
 * RFC 9112 §6.3: after a request whose framing is unknown, nothing more on the connection can be trusted. A Host
 * this service does not answer for is refused the same way, before any route runs.
 */
function refuseFraming(deps: Deps, req: PipelineRequest, res: PipelineResponse, error: ApiError, started: number): void {
  writeError(deps, req, res, { route: 'framing', status: 400, close: true }, error);
  logRequest(deps, req.method, 'framing', error.status, started);
}

/** Sends a JSON body as it is (cached bodies are Buffers: uWS then skips the UTF-8 encoding per send). */
export function sendJson(res: PipelineResponse, ctx: RequestContext, status: number, body: string | Buffer): void {
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
  if (error instanceof MeteringUnavailableError) failClosedOf(deps).failed(error);
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

/** The one error writer of the pipeline: {error: {code, message, details?}}. */
export function writeError(deps: Deps, req: PipelineRequest, res: PipelineResponse, ctx: RequestContext, error: unknown): void {
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
  // Every API error, a framing 400 (answered before any route's headers) included.
  res.header(NOSNIFF[0], NOSNIFF[1], true);
  for (const [name, value] of Object.entries(apiError.headers)) res.header(name, value, true);
  res.send(JSON.stringify(apiError.toBody()), ctx.close);
}
