// The five metered GET routes (search, entry, word of the day, languages, stats), served straight from the
// uWS app under hyper-express. They carry nearly all of the traffic, and hyper-express's per-request objects
// and bookkeeping cost a worker more than the rest of such a request (the bench's HTTP section sets each
// against raw uWS). Everything else (registration, OpenAPI, health, website, not-found) stays on
// hyper-express. Handlers are synchronous and return their reply; errors are thrown and translated in one place.
// Each route answers HEAD too, through the same handler.
import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parse as parseQuery } from 'node:querystring';

import { QuotaExceededError } from '../../shared/domain-errors.ts';
import { missingApiKey } from '../../shared/errors.ts';
import { framingOf, headerLines } from './framing.ts';
import { API_HEADER_ENTRIES, headerBlock, JSON_CONTENT_TYPE, NO_STORE } from './headers.ts';
import { inFlightOf } from './in-flight.ts';
import { logRequest, publicError } from './pipeline.ts';

import type { ApiError } from '../../shared/errors.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { Deps } from '../deps.ts';
import type { Admission } from '../metering-client/meter.ts';
import type { HeaderBlock } from './headers.ts';
import type { Server } from 'hyper-express';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';

/** What a handler may read of the request (copied out of uWS's request, which lives only for the callback). */
export interface GetRequest {
  /** The query string as sent, without `?`: a cache key. */
  readonly query: string;
  /** Query parameters, parsed as hyper-express parses them (node:querystring: repeated names give arrays). */
  queryParameters(): Record<string, unknown>;
  /** Route parameters in pattern order, still percent-encoded. */
  readonly params: readonly string[];
  readonly ifNoneMatch: string;
  /** For the stored and cached bodies that may be sent compressed (representations.ts). */
  readonly acceptEncoding: string;
}

/** A successful reply; the rate-limit headers are added for every route. */
export interface Reply {
  status: 200 | 304;
  /** Every other header, built by replyHeaders (a 200) or storedHeaders (a 200 or a 304). */
  headers: HeaderBlock;
  /**
   * The body (for a 304, the one a 200 would carry; it is not sent). Sent before the handler's caller returns
   * (uWS copies it in `end`), so a route may write the next reply's bytes over it (the search pages do).
   */
  body: Buffer;
}

/** A route's own headers for a 200, with CORS, nosniff and Content-Type, encoded once (a cached page keeps its own). */
export function replyHeaders(own: readonly (readonly [string, string])[]): HeaderBlock {
  return headerBlock([...API_HEADER_ENTRIES, ...own, ['content-type', JSON_CONTENT_TYPE]]);
}

/** A stored body's headers for its 200 and for its 304, which carries no body and so no Content-Type. */
export interface StoredHeaders {
  readonly ok: HeaderBlock;
  readonly notModified: HeaderBlock;
}

export function storedHeaders(own: readonly (readonly [string, string])[]): StoredHeaders {
  return { ok: replyHeaders(own), notModified: headerBlock([...API_HEADER_ENTRIES, ...own]) };
}

export type MeteredGetHandler = (req: GetRequest, admission: Admission) => Reply;

export interface MeteredGetRoute {
  /** uWS route pattern, e.g. /api/v1/words/:id. */
  pattern: string;
  /** Route name in the request log. */
  route: string;
  endpoint: MeteredEndpoint;
  handle: MeteredGetHandler;
}

const BEARER = 'Bearer ';

/**
 * Spec (Authentication 3): X-API-Key first; only when it is absent or empty, `Authorization` when it starts
 * with `Bearer ` (case as written). Both carry the same key.
 */
export function apiKeyFrom(xApiKey: string | undefined, authorization: string | undefined): string | undefined {
  if (xApiKey !== undefined && xApiKey !== '') return xApiKey;
  if (authorization !== undefined && authorization.startsWith(BEARER)) {
    const key = authorization.slice(BEARER.length).trim();
    if (key !== '') return key;
  }
  return undefined;
}

// Request header names as bytes: uWS converts a string argument to UTF-8 on every call.
const IF_NONE_MATCH = Buffer.from('if-none-match');
const X_API_KEY = Buffer.from('x-api-key');
const AUTHORIZATION = Buffer.from('authorization');
const ACCEPT_ENCODING = Buffer.from('accept-encoding');
const RATE_LIMIT_NAME = Buffer.from('x-ratelimit-limit');
const CONTENT_LENGTH = Buffer.from('content-length');
const TRANSFER_ENCODING = Buffer.from('transfer-encoding');
/** What every error reply carries besides its rate-limit headers and its own (Retry-After). */
const ERROR_HEADERS = headerBlock([...API_HEADER_ENTRIES, ['content-type', JSON_CONTENT_TYPE], ['cache-control', NO_STORE]]);

function readRequest(req: HttpRequest, paramCount: number): GetRequest {
  const query = req.getQuery() ?? '';
  const params: string[] = [];
  for (let i = 0; i < paramCount; i++) params.push(req.getParameter(i) ?? '');
  let parsed: Record<string, unknown> | undefined;
  return {
    query,
    queryParameters: () => (parsed ??= parseQuery(query)),
    params,
    ifNoneMatch: req.getHeader(IF_NONE_MATCH),
    acceptEncoding: req.getHeader(ACCEPT_ENCODING),
  };
}

/** The three rate-limit headers in one call (see HeaderBlock): the value is digits only, so nothing can split. */
function writeRateLimit(res: HttpResponse, limit: number, remaining: number, used: number): void {
  res.writeHeader(RATE_LIMIT_NAME, `${limit}\r\nx-ratelimit-remaining: ${remaining}\r\nx-ratelimit-used: ${used}`);
}

function writeBlock(res: HttpResponse, block: HeaderBlock): void {
  res.writeHeader(block.name, block.value);
}

export function registerMeteredGet(app: Server, deps: Deps, route: MeteredGetRoute): void {
  // HEAD (RFC 9110 §9.3.2) runs the same admission and handler: the same status and headers, metered and
  // counted like the GET, with the body's Content-Length and no body.
  app.uws_instance.get(route.pattern, meteredHandler(app, deps, route, false));
  app.uws_instance.head(route.pattern, meteredHandler(app, deps, route, true));
}

function meteredHandler(app: Server, deps: Deps, { pattern, route, endpoint, handle }: MeteredGetRoute, head: boolean) {
  const inFlight = inFlightOf(app);
  const paramCount = pattern.split('/').filter((part) => part.startsWith(':')).length;
  const method = head ? 'HEAD' : 'GET';

  /** Ends a response that has a body; `close` asks uWS to close the connection after it. */
  const end = (res: HttpResponse, body: string | Buffer, close: boolean): void => {
    if (!head) {
      res.end(body, close);
      return;
    }
    // endWithoutBody is called bare (see the 304 below): the length goes in as a header.
    res.writeHeader(CONTENT_LENGTH, String(Buffer.byteLength(body)));
    res.endWithoutBody();
  };

  /** The error reply; rate-limit headers once the key is resolved (spec, Errors 2), none on 401s. */
  const sendError = (res: HttpResponse, error: unknown, admission: Admission | undefined, close = false): number => {
    const apiError: ApiError = publicError(deps, method, route, error);
    if (admission === undefined) deps.stats.refused(endpoint, apiError.code);
    res.writeStatus(`${apiError.status} ${STATUS_CODES[apiError.status] ?? 'Error'}`);
    writeBlock(res, ERROR_HEADERS);
    if (admission) writeRateLimit(res, admission.limit, admission.remaining, admission.used);
    else if (error instanceof QuotaExceededError) writeRateLimit(res, error.state.limit, 0, error.state.used);
    for (const [name, value] of Object.entries(apiError.headers)) res.writeHeader(name, value);
    const body = JSON.stringify(apiError.toBody());
    // A connection whose framing is in doubt is closed, HEAD included (its stray body goes with the connection).
    if (close) res.end(body, true);
    else end(res, body, inFlight.draining);
    return apiError.status;
  };

  const serve = (res: HttpResponse, req: GetRequest, admission: Admission): number => {
    let reply: Reply;
    try {
      reply = handle(req, admission);
    } catch (error) {
      return sendError(res, error, admission);
    }
    if (reply.status === 304) res.writeStatus('304 Not Modified');
    writeBlock(res, reply.headers);
    writeRateLimit(res, admission.limit, admission.remaining, admission.used);
    // A 304 goes without Content-Length (RFC 9110 §8.6 allows it; 0 would be wrong). This uWS build's
    // endWithoutBody with any argument leaves the response unfinished (the next request on the connection is
    // never read), so it is called bare, and a 304 does not close its connection while the worker drains:
    // the client's next request, or the end of the drain, does.
    if (reply.status === 304) res.endWithoutBody();
    else {
      // While draining, every other response closes its connection: keep-alive clients move to another worker.
      end(res, reply.body, inFlight.draining);
    }
    return reply.status;
  };

  return (res: HttpResponse, raw: HttpRequest): void => {
    const started = performance.now();
    inFlight.start();
    const done = (status: number, admission?: Admission): void => {
      inFlight.end();
      logRequest(deps, method, route, status, started, admission?.keyPrefix);
    };
    // A GET seldom declares a body; only then are all its header lines read, to refuse framing that uWS and a
    // proxy in front could read differently (RFC 9112 §6.3). Refused before admission: nothing is counted.
    if (raw.getHeader(CONTENT_LENGTH) !== '' || raw.getHeader(TRANSFER_ENCODING) !== '') {
      const framing = framingOf(headerLines(raw));
      if (framing.body === 'refused') {
        done(sendError(res, framing.error, undefined, true));
        return;
      }
    }
    const req = readRequest(raw, paramCount);
    const key = apiKeyFrom(raw.getHeader(X_API_KEY), raw.getHeader(AUTHORIZATION));
    let admission: Admission | undefined;
    try {
      // Spec (Authentication 4, 6): refused before the handler, without rate-limit headers.
      if (key === undefined) throw missingApiKey();
      // The common case: the worker holds allowance and decides here; the response leaves in this callback.
      admission = deps.meter.admitNow?.(key, endpoint);
    } catch (error) {
      done(sendError(res, error, undefined));
      return;
    }
    if (admission !== undefined) {
      deps.stats.admitted(endpoint, 'held');
      done(serve(res, req, admission), admission);
      return;
    }
    // The metering service must be asked: uWS needs an abort handler, and writes later must be corked.
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    deps.meter.admit(key, endpoint).then(
      (granted) => {
        if (aborted) return done(499, granted);
        deps.stats.admitted(endpoint, 'asked');
        res.cork(() => done(serve(res, req, granted), granted));
      },
      (error: unknown) => {
        if (aborted) return done(499);
        res.cork(() => done(sendError(res, error, undefined)));
      },
    );
  };
}
