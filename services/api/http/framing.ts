// How a request's body is framed, decided from its raw header lines (duplicates kept), and the requests whose
// framing cannot be trusted: those are answered 400 (or 501) and their connection closed (RFC 9112 §6.3).
import { ApiError } from '../../shared/errors.ts';

import type { HttpRequest } from 'uWebSockets.js';

/** Header lines as received: lower-case names, in order, repeated names kept. */
export type HeaderLines = readonly (readonly [string, string])[];

export type Framing =
  | { readonly body: 'none' }
  | { readonly body: 'length'; readonly length: number }
  | { readonly body: 'chunked' }
  /** Unrecoverable: answer `error` and close the connection, whatever follows on it. */
  | { readonly body: 'refused'; readonly error: ApiError };

const NO_BODY: Framing = { body: 'none' };
const CHUNKED: Framing = { body: 'chunked' };
/** RFC 9110 §8.6: Content-Length = 1*DIGIT. No sign, no list, no spaces inside. */
const DIGITS = /^[0-9]+$/;

const badRequest = (message: string): Framing => ({ body: 'refused', error: new ApiError('bad_request', message) });

/** Every header line of a uWS request (uWS hands over the first of a repeated name only to getHeader). */
export function headerLines(req: HttpRequest): HeaderLines {
  const lines: [string, string][] = [];
  req.forEach((name, value) => lines.push([name, value]));
  return lines;
}

/**
 * The framing of a request with these header lines. uWS frames the body by the first Content-Length line, or
 * as chunked whenever Transfer-Encoding is present, and hands a later Content-Length to whoever asks: any
 * request on which two readers could disagree is refused here, before anything reads its body.
 */
export function framingOf(lines: HeaderLines): Framing {
  let hosts = 0;
  const lengths: string[] = [];
  const codings: string[] = [];
  let encodingLines = 0;
  for (const [name, value] of lines) {
    if (name === 'host') hosts++;
    else if (name === 'content-length') lengths.push(value);
    else if (name === 'transfer-encoding') {
      encodingLines++;
      for (const coding of value.split(',')) if (coding.trim() !== '') codings.push(coding.trim().toLowerCase());
    }
  }
  // RFC 9112 §3.2: more than one Host line is a 400.
  if (hosts > 1) return badRequest('Send exactly one Host header.');
  if (encodingLines > 0) {
    // RFC 9112 §6.3: Transfer-Encoding with Content-Length may be a smuggling attempt; uWS reads only the first
    // Transfer-Encoding line, so a second one could change the framing behind its back.
    if (lengths.length > 0) return badRequest('Send either Transfer-Encoding or Content-Length, not both.');
    if (encodingLines > 1) return badRequest('Send Transfer-Encoding once.');
    // RFC 9112 §6.3: chunked must be the final coding, or the length cannot be known (400, then close).
    if (codings.at(-1) !== 'chunked') return badRequest('Transfer-Encoding must end with chunked.');
    // RFC 9112 §6.1: chunked is applied once; RFC 9112 §6.1 / 9110 §15.6.2: a coding we do not decode is a 501.
    if (codings.length > 1) {
      return codings.slice(0, -1).includes('chunked')
        ? badRequest('Transfer-Encoding names chunked more than once.')
        : { body: 'refused', error: new ApiError('not_implemented', 'The only transfer coding accepted is chunked.') };
    }
    return CHUNKED;
  }
  if (lengths.length > 1) return badRequest('Send Content-Length once.');
  if (lengths.length === 0) return NO_BODY;
  const value = lengths[0].trim();
  if (!DIGITS.test(value)) return badRequest('Content-Length must be a whole number of bytes.');
  const length = Number(value);
  return length === 0 ? NO_BODY : { body: 'length', length };
}
