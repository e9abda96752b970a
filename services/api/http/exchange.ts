// What a pipeline handler reads of a request and does with its response: the part of hyper-express's Request and
// Response that the pipeline uses, which the adapter's objects (hyper-express-adapter.ts) have too, so that one
// handler serves both.
import type { Framing } from './framing.ts';
import type { Readable } from 'node:stream';

/** What a handler reads of a request: the part of hyper-express's Request that the adapter's requests have too. */
export interface PipelineRequest {
  readonly method: string;
  readonly path: string;
  /** Lower-case names; a repeated name gives its last value. */
  readonly headers: Readonly<Record<string, string>>;
  /** Still percent-encoded. */
  readonly path_parameters: Readonly<Record<string, string>>;
  /** node:querystring's parse: a repeated name gives an array. */
  readonly query_parameters: Readonly<Record<string, unknown>>;
  /** The peer's address; read it before the first await (it cannot be read once the response has ended). */
  readonly ip: string;
}

/** The request of a route that reads its body (one registered with a body limit). */
export interface BodyRequest extends PipelineRequest {
  /** How the body is framed, decided from the request's header lines. */
  readonly framing: Exclude<Framing, { body: 'refused' }>;
  /**
   * The whole body: rejects with BodyTooLargeError once more than the route's limit is declared or received,
   * BodyAbortedError if the client went away. Empty when the request has none.
   */
  body(): Promise<Buffer>;
}

/** What a handler does with a response: the part of hyper-express's Response that the adapter's responses have too. */
export interface PipelineResponse {
  status(code: number): PipelineResponse;
  /** Adds a header (a repeated name is sent once per value), or replaces every value with `overwrite`. */
  header(name: string, value: string, overwrite?: boolean): PipelineResponse;
  send(body?: string | Buffer, closeConnection?: boolean): PipelineResponse;
  /** Sends the stream as the body, `totalBytes` long; what it returns settles once sent (or the client left). */
  stream(readable: Readable, totalBytes: number): unknown;
  /** Cuts the connection. */
  close(): void;
  once(event: 'abort', listener: () => void): unknown;
  readonly completed: boolean;
  readonly initiated: boolean;
  readonly aborted: boolean;
}
