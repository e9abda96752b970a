// The one place that reaches into hyper-express's internals (6.14.12, pinned in package.json): its body parser
// (Request._body_parser_run/_stop) is replaced by ours for the apps installed here, and HEAD is answered wherever
// GET is. Everything else in the API uses hyper-express's public interface only.
import { createRequire } from 'node:module';

import { framingOf, headerLines } from './framing.ts';

import type { ApiError } from '../../shared/errors.ts';
import type { Framing } from './framing.ts';
import type { Request, Response, Server } from 'hyper-express';
import type { HttpRequest, HttpResponse, RecognizedString } from 'uWebSockets.js';

/** What hyper-express's Request holds and calls that this file uses or replaces. */
interface RequestInternals {
  route: { app: Server };
  method: string;
  _raw_request: HttpRequest;
  _raw_response: HttpResponse;
  _body_parser_run(response: Response, limitBytes: number): boolean;
  _body_parser_stop(): void;
}

/** Answers a request whose framing cannot be trusted; the connection must close after it. */
export type RefuseFraming = (req: Request, res: Response, error: ApiError) => void;

export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(readonly limitBytes: number) {
    super(`request body over ${limitBytes} bytes`);
  }
}

export class BodyAbortedError extends Error {
  override readonly name = 'BodyAbortedError';
}

/** hyper-express's Request class: its prototype carries the body parser replaced below. */
const HyperRequest = createRequire(import.meta.url)('hyper-express/src/components/http/Request.js') as {
  prototype: RequestInternals;
};
const original = {
  run: HyperRequest.prototype._body_parser_run,
  stop: HyperRequest.prototype._body_parser_stop,
};
const installed = new WeakMap<Server, RefuseFraming>();
const framings = new WeakMap<object, Framing>();
const readers = new WeakMap<object, BodyReader>();

/**
 * hyper-express's own parser trusts the last Content-Length line while uWS frames the body by the first one
 * (a longer first value overran its buffer and killed the worker), ignores chunked bodies, and answers an
 * oversized body with an empty 413 after reading it. For `app`, requests go through `admit` instead: framing
 * checked from the raw header lines, bodies read here only for routes with a `max_body_length`, capped at it.
 */
export function installHyperExpressAdapter(app: Server, refuse: RefuseFraming): void {
  installed.set(app, refuse);
  const proto = HyperRequest.prototype;
  if (proto._body_parser_run !== original.run) return;
  proto._body_parser_run = function (this: RequestInternals, response: Response, limitBytes: number): boolean {
    const ours = installed.get(this.route.app);
    return ours ? admit(this, response, limitBytes, ours) : original.run.call(this, response, limitBytes);
  };
  // hyper-express calls it when the client goes away or the response is closed before the body was read.
  proto._body_parser_stop = function (this: RequestInternals): void {
    if (installed.has(this.route.app)) readers.get(this)?.stop();
    else original.stop.call(this);
  };
}

/** Runs inside uWS's request callback, before the route's handler: false means the request was answered here. */
function admit(req: RequestInternals, response: Response, limitBytes: number, refuse: RefuseFraming): boolean {
  if (req.method === 'HEAD') {
    const internals = response as unknown as { _raw_response: HttpResponse };
    internals._raw_response = withoutBody(internals._raw_response);
  }
  const framing = framingOf(headerLines(req._raw_request));
  if (framing.body === 'refused') {
    refuse(req as unknown as Request, response, framing.error);
    return false;
  }
  framings.set(req, framing);
  // uWS hands body chunks only to a handler attached before its callback returns: start reading now.
  if (framing.body !== 'none' && limitBytes > 0) {
    readers.set(req, new BodyReader(req._raw_response, limitBytes, framing.body === 'length' ? framing.length : undefined));
  }
  return true;
}

/** The body as the request declared it: its Content-Length, or chunked (length unknown until read). */
export function declaredBody(req: Request): Framing {
  return framings.get(req) ?? { body: 'none' };
}

/**
 * The whole body, for a route registered with a `max_body_length`: rejects with BodyTooLargeError as soon as
 * more than that has been declared or received (nothing beyond it is kept), BodyAbortedError if the client
 * went away. Empty when the request has no body.
 */
export function readBody(req: Request): Promise<Buffer> {
  const reader = readers.get(req);
  return reader ? reader.read() : Promise.resolve(Buffer.alloc(0));
}

/** Reads one request's body from uWS as it arrives, keeping at most `limitBytes`. */
class BodyReader {
  private chunks: Buffer[] = [];
  private received = 0;
  private outcome: Buffer | Error | undefined;
  private readonly waiting: { resolve: (body: Buffer) => void; reject: (error: Error) => void }[] = [];

  constructor(raw: HttpResponse, private readonly limitBytes: number, declared: number | undefined) {
    // Refused from the header: uWS discards the bytes as they come.
    if (declared !== undefined && declared > limitBytes) {
      this.settle(new BodyTooLargeError(limitBytes));
      return;
    }
    raw.onData((chunk, isLast) => this.onChunk(chunk, isLast));
  }

  read(): Promise<Buffer> {
    const { outcome } = this;
    if (outcome instanceof Error) return Promise.reject(outcome);
    if (outcome !== undefined) return Promise.resolve(outcome);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  stop(): void {
    this.settle(new BodyAbortedError('the request ended before its body was read'));
  }

  private onChunk(chunk: ArrayBuffer, isLast: boolean): void {
    if (this.outcome !== undefined) return;
    this.received += chunk.byteLength;
    // The cap holds while reading: a chunked body announces no length, so it is counted as it arrives.
    if (this.received > this.limitBytes) {
      this.settle(new BodyTooLargeError(this.limitBytes));
      return;
    }
    // uWS reuses the chunk's memory once this callback returns: copy it.
    if (chunk.byteLength > 0) this.chunks.push(Buffer.from(new Uint8Array(chunk)));
    if (isLast) this.settle(Buffer.concat(this.chunks));
  }

  private settle(outcome: Buffer | Error): void {
    if (this.outcome !== undefined) return;
    this.outcome = outcome;
    this.chunks = [];
    for (const { resolve, reject } of this.waiting.splice(0)) {
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    }
  }
}

/**
 * Registers every GET route of `app` for HEAD too (RFC 9110 §9.3.2: the same status and headers, no content).
 * Call it after the last GET route and before listen.
 */
export function answerHeadLikeGet(app: Server): void {
  const routes = (app as unknown as { routes: { get: Record<string, { handler: (req: Request, res: Response) => void }> } }).routes;
  for (const [pattern, route] of Object.entries(routes.get)) app.head(pattern, route.handler);
}

/**
 * The uWS response of a HEAD request as hyper-express sees it: `end(body)` sends the headers with the body's
 * Content-Length and no body. uWS's endWithoutBody is called bare: in this build, with a length argument it
 * leaves the response unfinished.
 */
function withoutBody(raw: HttpResponse): HttpResponse {
  const end = (body?: RecognizedString): HttpResponse => {
    raw.writeHeader('content-length', String(byteLength(body)));
    raw.endWithoutBody();
    return raw;
  };
  return new Proxy(raw, {
    get(target, property) {
      if (property === 'end') return end;
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function byteLength(body: RecognizedString | undefined): number {
  if (body === undefined) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}
