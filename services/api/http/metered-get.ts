// The fast path of the five metered GET routes (search, entry, word of the day, languages, stats): their
// descriptors (routes.ts) are served straight from the uWS app under hyper-express. They carry nearly all of
// the traffic, and hyper-express's per-request objects and bookkeeping cost a worker more than the rest of such
// a request (the bench's HTTP section sets each against raw uWS). Everything else goes through the pipeline
// (pipeline.ts). Handlers are synchronous and return their reply; errors are thrown and translated in one place.
// Each route answers HEAD too, through the same handler. Per request, nothing is allocated here but the request
// view a handler reads: the header blocks are encoded once, and the route's work is in methods, not closures.
import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parse as parseQuery } from 'node:querystring';

import { QuotaExceededError } from '../../shared/domain-errors.ts';
import { missingApiKey } from '../../shared/errors.ts';
import { clientIp } from './client-ip.ts';
import { framingOf, headerLines } from './framing.ts';
import { API_HEADER_ENTRIES, headerBlock, JSON_CONTENT_TYPE, NO_STORE } from './headers.ts';
import { inFlightOf } from './in-flight.ts';
import { failClosedOf } from './fail-closed.ts';
import { hostRefusal } from './host.ts';
import { logRequest, publicError } from './pipeline.ts';

import type { ApiError } from '../../shared/errors.ts';
import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { Deps } from '../deps.ts';
import type { Admission } from '../metering-client/meter.ts';
import type { AdmittedBy } from '../metrics/worker-stats.ts';
import type { HeaderBlock } from './headers.ts';
import type { InFlight } from './in-flight.ts';
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
const X_FORWARDED_FOR = Buffer.from('x-forwarded-for');
/** What every error reply carries besides its rate-limit headers and its own (Retry-After). */
const ERROR_HEADERS = headerBlock([...API_HEADER_ENTRIES, ['content-type', JSON_CONTENT_TYPE], ['cache-control', NO_STORE]]);

/** The request view: one object per request, its query parsed only if the handler asks. */
class UwsGetRequest implements GetRequest {
  private parsed: Record<string, unknown> | undefined;
  constructor(
    readonly query: string,
    readonly params: readonly string[],
    readonly ifNoneMatch: string,
    readonly acceptEncoding: string,
  ) {}
  queryParameters(): Record<string, unknown> {
    return (this.parsed ??= parseQuery(this.query));
  }
}

const NO_PARAMS: readonly string[] = [];

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
  app.uws_instance.get(route.pattern, new MeteredGet(app, deps, route, false).callback);
  app.uws_instance.head(route.pattern, new MeteredGet(app, deps, route, true).callback);
}

/** One metered route for one method (GET or HEAD). */
class MeteredGet {
  private readonly inFlight: InFlight;
  private readonly paramCount: number;
  private readonly method: 'GET' | 'HEAD';
  private readonly route: string;
  private readonly endpoint: MeteredEndpoint;
  private readonly handle: MeteredGetHandler;

  constructor(
    app: Server,
    private readonly deps: Deps,
    { pattern, route, endpoint, handle }: MeteredGetRoute,
    private readonly head: boolean,
  ) {
    this.inFlight = inFlightOf(app);
    this.paramCount = pattern.split('/').filter((part) => part.startsWith(':')).length;
    this.method = head ? 'HEAD' : 'GET';
    this.route = route;
    this.endpoint = endpoint;
    this.handle = handle;
  }

  /** uWS's callback for the route. */
  readonly callback = (res: HttpResponse, raw: HttpRequest): void => {
    const started = performance.now();
    this.inFlight.start();
    // A GET seldom declares a body; only then are all its header lines read, to refuse framing that uWS and a
    // proxy in front could read differently (RFC 9112 §6.3). Refused before admission: nothing is counted.
    if (raw.getHeader(CONTENT_LENGTH) !== '' || raw.getHeader(TRANSFER_ENCODING) !== '') {
      const framing = framingOf(headerLines(raw));
      if (framing.body === 'refused') return this.done(started, this.sendError(res, framing.error, undefined, true));
    }
    const misdirected = hostRefusal(this.deps.config.allowedHosts, raw.getHeader('host'));
    if (misdirected !== undefined) return this.done(started, this.sendError(res, misdirected, undefined, true));
    const req = this.readRequest(raw);
    const key = apiKeyFrom(raw.getHeader(X_API_KEY), raw.getHeader(AUTHORIZATION));
    let admission: Admission | Promise<Admission> | undefined;
    try {
      // Spec (Authentication 4, 6): refused before the handler, without rate-limit headers.
      if (key === undefined) throw missingApiKey();
      // The common case: the worker or its host holds allowance. From the worker's own block the response
      // leaves in this callback; from the host's, once this turn's takes are committed.
      admission = this.deps.meter.admitNow?.(key, this.endpoint);
    } catch (error) {
      return this.done(started, this.sendError(res, error, undefined));
    }
    if (admission === undefined) {
      return this.admitLater(res, req, this.deps.meter.admit(key, this.endpoint, this.clientIpOf(res, raw)), 'asked', started);
    }
    if (admission instanceof Promise) return this.admitLater(res, req, admission, 'held', started);
    this.deps.stats.admitted(this.endpoint, 'held');
    this.done(started, this.reply(res, req, admission), admission);
  };

  /**
   * Decided after this callback (a unit of the host's, committed at the end of the turn, or metering asked):
   * uWS needs an abort handler, and writes later must be corked.
   */
  private admitLater(res: HttpResponse, req: GetRequest, pending: Promise<Admission>, by: AdmittedBy, started: number): void {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    pending.then(
      (granted) => {
        if (aborted) return this.done(started, 499, granted);
        this.deps.stats.admitted(this.endpoint, by);
        if (by === 'asked') failClosedOf(this.deps).answered();
        res.cork(() => this.done(started, this.reply(res, req, granted), granted));
      },
      (error: unknown) => {
        if (aborted) return this.done(started, 499);
        res.cork(() => this.done(started, this.sendError(res, error, undefined)));
      },
    );
  }

  /**
   * The client's address (through TRUST_PROXY), read only on the way to the metering service: it bounds what
   * unknown keys from one address cost (guards/unknown-keys.ts). Read in the callback, while `raw` is valid.
   */
  private clientIpOf(res: HttpResponse, raw: HttpRequest): string {
    const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
    return clientIp(peer, raw.getHeader(X_FORWARDED_FOR) || undefined, this.deps.config.trustProxy);
  }

  private done(started: number, status: number, admission?: Admission): void {
    this.inFlight.end();
    logRequest(this.deps, this.method, this.route, status, started, admission?.keyPrefix);
  }

  private readRequest(raw: HttpRequest): GetRequest {
    let params = NO_PARAMS;
    if (this.paramCount > 0) {
      const values: string[] = [];
      for (let i = 0; i < this.paramCount; i++) values.push(raw.getParameter(i) ?? '');
      params = values;
    }
    return new UwsGetRequest(raw.getQuery() ?? '', params, raw.getHeader(IF_NONE_MATCH), raw.getHeader(ACCEPT_ENCODING));
  }

  /** The handler's reply with the rate-limit headers, or its error; the status sent. */
  private reply(res: HttpResponse, req: GetRequest, admission: Admission): number {
    let reply: Reply;
    try {
      reply = this.handle(req, admission);
    } catch (error) {
      return this.sendError(res, error, admission);
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
      this.end(res, reply.body, this.inFlight.draining);
    }
    return reply.status;
  }

  /** The error reply; rate-limit headers once the key is resolved (spec, Errors 2), none on 401s. */
  private sendError(res: HttpResponse, error: unknown, admission: Admission | undefined, close = false): number {
    const apiError: ApiError = publicError(this.deps, this.method, this.route, error);
    if (admission === undefined) this.deps.stats.refused(this.endpoint, apiError.code);
    res.writeStatus(`${apiError.status} ${STATUS_CODES[apiError.status] ?? 'Error'}`);
    writeBlock(res, ERROR_HEADERS);
    if (admission) writeRateLimit(res, admission.limit, admission.remaining, admission.used);
    else if (error instanceof QuotaExceededError) writeRateLimit(res, error.state.limit, 0, error.state.used);
    for (const [name, value] of Object.entries(apiError.headers)) res.writeHeader(name, value);
    const body = JSON.stringify(apiError.toBody());
    // A connection whose framing is in doubt is closed, HEAD included (its stray body goes with the connection).
    if (close) res.end(body, true);
    else this.end(res, body, this.inFlight.draining);
    return apiError.status;
  }

  /** Ends a response that has a body; `close` asks uWS to close the connection after it. */
  private end(res: HttpResponse, body: string | Buffer, close: boolean): void {
    if (!this.head) {
      res.end(body, close);
      return;
    }
    // endWithoutBody is called bare (see the 304 above): the length goes in as a header.
    res.writeHeader(CONTENT_LENGTH, String(Buffer.byteLength(body)));
    res.endWithoutBody();
  }
}
