// What hyper-express 6.14.12 (pinned in package.json) cannot do for this API, done on the uWS request and response
// under its objects, through its public interface only: `Request.raw` (read while uWS's callback runs, as
// hyper-express requires) and `Response.raw`. Each limit below has a test in test/api/hyper-express-adapter.test.ts
// that fails once a new version lifts it.
// - Its body parser sizes a body by the last Content-Length line while uWS frames it by the first (a longer
//   first value overran its buffer and killed the worker), ignores chunked bodies, answers a body over the
//   route's max_body_length with an empty 413 once it has read all of it, and holds any response until the
//   whole body has arrived. So hyper-express is told that no body is too large (createApp), and a request that
//   declares a body is taken over here: its framing checked from the raw header lines, its body read only for
//   a route with a body limit (capped while it arrives), its response written here.
// - It answers HEAD only on routes registered for HEAD, and the response it ends carries the body, or, given a
//   Content-Length and no body, ends with uWS's endWithoutBody(length), which this uWS build leaves unfinished
//   (the connection's next request is never answered). So every GET route is registered for HEAD too (wire.ts),
//   and a HEAD is answered here: the GET's status and headers, its body's Content-Length, no body.
// - Its Response.stream() waits on a client that stops reading for as long as the connection stays open. So a
//   route that streams (downloads) gets the response written here, which drops a client that takes none of its
//   bytes for a while and bounds the bytes held for such clients per worker (response-buffers.ts).
// Every other request is served by hyper-express's own Request and Response.
import { STATUS_CODES } from 'node:http';

import { framingOf, headerLines } from './framing.ts';

import type { ApiError } from '../../shared/errors.ts';
import type { ResponseBuffers } from './response-buffers.ts';
import type { BodyRequest, PipelineRequest, PipelineResponse } from './exchange.ts';
import type { Request, Response } from 'hyper-express';
import type { Readable } from 'node:stream';
import type { HttpResponse, RecognizedString } from 'uWebSockets.js';

export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(readonly limitBytes: number) {
    super(`request body over ${limitBytes} bytes`);
  }
}

export class BodyAbortedError extends Error {
  override readonly name = 'BodyAbortedError';
}

/** The request and response a handler gets; `refused` when the framing cannot be trusted (answer, then close). */
export type Exchange =
  | { readonly refused?: undefined; readonly req: PipelineRequest; readonly res: PipelineResponse }
  | { readonly refused: ApiError; readonly req: PipelineRequest; readonly res: PipelineResponse };

const ignoreBody = (): void => undefined;

/**
 * Decides, inside uWS's callback, who serves this request: hyper-express's objects, or the uWS ones (HEAD, a
 * declared body, framing in doubt, a route that streams). With `bodyLimitBytes` the request is a BodyRequest
 * whose body is read; with `streams` its response is written here, its unread bytes accounted there.
 */
export function adapt(req: Request, res: Response, bodyLimitBytes: number | undefined, streams?: ResponseBuffers): Exchange {
  const framing = framingOf(headerLines(req.raw));
  const head = req.method === 'HEAD';
  if (framing.body === 'refused') {
    // Answered at once; whatever follows on the connection is dropped with it.
    res.raw.onData(ignoreBody);
    return { refused: framing.error, req, res: new UwsResponse(res.raw, head) };
  }
  if (framing.body === 'none') {
    const response = head ? new UwsResponse(res.raw, true) : streams ? new UwsResponse(res.raw, false, streams) : res;
    return { req: bodyLimitBytes === undefined ? req : new ReadBodyRequest(req, framing, undefined), res: response };
  }
  // A declared body: hyper-express's parser (bound for a Content-Length) is replaced on the uWS response, and
  // its Response, which would wait for that parser, is not used.
  const response = new UwsResponse(res.raw, head);
  if (bodyLimitBytes === undefined) {
    res.raw.onData(ignoreBody);
    return { req, res: response };
  }
  const reader = new BodyReader(res.raw, bodyLimitBytes, framing.body === 'length' ? framing.length : undefined);
  response.once('abort', () => reader.stop());
  return { req: new ReadBodyRequest(req, framing, reader), res: response };
}

/** hyper-express's request, with the body the adapter reads. */
class ReadBodyRequest implements BodyRequest {
  constructor(
    private readonly inner: Request,
    readonly framing: BodyRequest['framing'],
    private readonly reader: BodyReader | undefined,
  ) {}
  get method(): string {
    return this.inner.method;
  }
  get path(): string {
    return this.inner.path;
  }
  get headers(): Readonly<Record<string, string>> {
    return this.inner.headers;
  }
  get path_parameters(): Readonly<Record<string, string>> {
    return this.inner.path_parameters;
  }
  get query_parameters(): Readonly<Record<string, unknown>> {
    return this.inner.query_parameters;
  }
  get ip(): string {
    return this.inner.ip;
  }
  body(): Promise<Buffer> {
    return this.reader?.read() ?? Promise.resolve(Buffer.alloc(0));
  }
}

/** Reads one request's body from uWS as it arrives, keeping at most `limitBytes`. */
class BodyReader {
  private chunks: Buffer[] = [];
  private received = 0;
  private outcome: Buffer | Error | undefined;
  private readonly waiting: { resolve: (body: Buffer) => void; reject: (error: Error) => void }[] = [];

  constructor(raw: HttpResponse, private readonly limitBytes: number, declared: number | undefined) {
    // uWS hands body chunks only to a handler attached before its callback returns; past the outcome they are
    // dropped as they come.
    raw.onData((chunk, isLast) => this.onChunk(chunk, isLast));
    if (declared !== undefined && declared > limitBytes) this.settle(new BodyTooLargeError(limitBytes));
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
 * A response written on uWS with hyper-express's rules for what the pipeline uses (headers in the order first
 * set, a repeated name once per value, Content-Length from the body), and for HEAD without the body. Every
 * write is corked: uWS batches it, inside its callback or after an await.
 */
class UwsResponse implements PipelineResponse {
  completed = false;
  initiated = false;
  #status: number | undefined;
  readonly #headers = new Map<string, string | string[]>();
  readonly #onAbort: (() => void)[] = [];
  /** Settles the write waiting on the client, if one is (the client went away, or was dropped). */
  #waiting: (() => void) | undefined;
  #stall: NodeJS.Timeout | undefined;
  /** uWS said the connection is gone: the raw response must not be touched again. */
  #aborted = false;

  constructor(
    private readonly raw: HttpResponse,
    private readonly head: boolean,
    private readonly buffers?: ResponseBuffers,
  ) {
    // Takes the place of hyper-express's abort handler: this object owns the response now.
    raw.onAborted(() => {
      this.#aborted = true;
      this.#waiting?.();
      if (this.completed) return;
      this.completed = true;
      for (const listener of this.#onAbort.splice(0)) listener();
    });
  }

  /** As hyper-express's: a response no longer writable counts as aborted. */
  get aborted(): boolean {
    return this.completed;
  }

  status(code: number): this {
    this.#status = code;
    return this;
  }

  header(name: string, value: string, overwrite = false): this {
    const key = name.toLowerCase();
    const current = this.#headers.get(key);
    if (overwrite || current === undefined) this.#headers.set(key, value);
    else if (Array.isArray(current)) current.push(value);
    else this.#headers.set(key, [current, value]);
    return this;
  }

  once(_event: 'abort', listener: () => void): this {
    this.#onAbort.push(listener);
    return this;
  }

  send(body?: string | Buffer, closeConnection = false): this {
    if (this.completed) return this;
    this.raw.cork(() => {
      this.#initiate();
      if (this.head) this.#endWithoutBody(byteLength(body));
      else this.raw.end(body, closeConnection);
    });
    this.completed = true;
    return this;
  }

  /** The stream's bytes as the body (uWS's tryEnd, waiting for the socket when it is full); none for HEAD. */
  async stream(readable: Readable, totalBytes: number): Promise<void> {
    if (this.head) {
      readable.destroy();
      this.raw.cork(() => {
        this.#initiate();
        this.#endWithoutBody(totalBytes);
      });
      this.completed = true;
      return;
    }
    this.once('abort', () => readable.destroy());
    try {
      for await (const chunk of readable) {
        if (this.completed) break;
        await this.#write(chunk as Buffer, totalBytes);
      }
    } catch (error) {
      // A stream destroyed because the client went away ends its iteration with an error: nothing to report.
      if (!this.completed) throw error;
    }
  }

  close(): void {
    if (this.completed) return;
    this.completed = true;
    this.#waiting?.();
    this.raw.close();
  }

  #write(chunk: Buffer, totalBytes: number): Promise<void> {
    return new Promise((resolve) =>
      this.raw.cork(() => {
        this.#initiate();
        const start = this.raw.getWriteOffset();
        const [sent, done] = this.raw.tryEnd(chunk, totalBytes);
        if (done) this.completed = true;
        if (sent || done) return resolve();
        if (!this.#wait(chunk.byteLength, resolve)) return;
        this.raw.onWritable((offset) => {
          if (this.completed) {
            this.#waiting?.();
            return true;
          }
          const [flushed, finished] = this.raw.tryEnd(chunk.subarray(offset - start), totalBytes);
          if (finished) this.completed = true;
          if (flushed || finished) this.#waiting?.();
          else this.#stall?.refresh();
          return flushed;
        });
      }),
    );
  }

  /**
   * The client has not taken the whole chunk: it is held (counted in `buffers`) until the client takes it, goes
   * away, or takes nothing for `buffers.stallMs`, when the connection is dropped. False, and dropped at once,
   * when holding it would pass the worker's bound.
   */
  #wait(bytes: number, resolve: () => void): boolean {
    const { buffers } = this;
    if (buffers === undefined) {
      this.#waiting = () => {
        this.#waiting = undefined;
        resolve();
      };
      return true;
    }
    if (!buffers.hold(bytes)) {
      buffers.drop('buffer_full');
      this.#drop();
      resolve();
      return false;
    }
    this.#stall = setTimeout(() => {
      buffers.drop('stalled');
      this.#drop();
    }, buffers.stallMs);
    this.#waiting = () => {
      this.#waiting = undefined;
      clearTimeout(this.#stall);
      this.#stall = undefined;
      buffers.release(bytes);
      resolve();
    };
    return true;
  }

  /** Ends the response by cutting its connection, outside uWS's cork (a write may be inside one). */
  #drop(): void {
    this.#waiting?.();
    if (this.completed) return;
    this.completed = true;
    queueMicrotask(() => {
      if (!this.#aborted) this.raw.close();
    });
  }

  #initiate(): void {
    if (this.initiated) return;
    this.initiated = true;
    if (this.#status !== undefined) this.raw.writeStatus(`${this.#status} ${STATUS_CODES[this.#status] ?? ''}`);
    for (const [name, value] of this.#headers) {
      // The body's own length is written by uWS (or below, for HEAD).
      if (name === 'content-length') continue;
      if (Array.isArray(value)) for (const each of value) this.raw.writeHeader(name, each);
      else this.raw.writeHeader(name, value);
    }
  }

  /**
   * RFC 9110 §9.3.2: a HEAD gets the GET's headers and no content. endWithoutBody is called bare: given any
   * argument, this uWS build leaves the response unfinished. So the length goes in as a header, and a HEAD
   * cannot ask uWS to close the connection after it.
   */
  #endWithoutBody(length: number): void {
    this.raw.writeHeader('content-length', String(length));
    this.raw.endWithoutBody();
  }
}

function byteLength(body: RecognizedString | undefined): number {
  if (body === undefined) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

