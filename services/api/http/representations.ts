// A stored body's representations on the metered routes: as it is, and compressed in each coding a client may
// accept, each with its own ETag and header blocks (encoded once). Only a body that a cache keeps (or one fixed
// for the process) is ever compressed, once per coding: the metered routes never compress per request.
import { CompressedBody, encodedEtag } from './compression.ts';
import type { ContentCoding } from './compression.ts';
import { ifNoneMatchHits } from './etag.ts';
import { storedHeaders } from './headers.ts';
import type { StoredHeaders } from './headers.ts';
import type { GetRequest, Reply } from './metered-get.ts';

/**
 * Every metered 200 and 304 says that its body may differ by Accept-Encoding and by the key (caches key on both):
 * the responses are `public, s-maxage` (spec), and a shared cache that kept one key's response for every key
 * would answer requests that metering never saw, with another key's rate headers.
 */
export const METERED_VARY: readonly [string, string] = ['vary', 'Accept-Encoding, X-API-Key'];

export interface Representation {
  readonly etag: string;
  readonly headers: StoredHeaders;
}

export type Representations = Readonly<Record<ContentCoding | 'identity', Representation>>;

/** The header blocks of a stored body's three representations; `own` are the route's headers besides ETag. */
export function representations(own: readonly (readonly [string, string])[], etag: string): Representations {
  const encoded = (coding: ContentCoding): Representation => {
    const tag = encodedEtag(etag, coding);
    // A 304 carries no body, so no Content-Encoding: only what names the representation (ETag, Vary).
    const ok = storedHeaders([...own, ['etag', tag], ['content-encoding', coding], METERED_VARY]).ok;
    const notModified = storedHeaders([...own, ['etag', tag], METERED_VARY]).notModified;
    return { etag: tag, headers: { ok, notModified } };
  };
  return {
    identity: { etag, headers: storedHeaders([...own, ['etag', etag], METERED_VARY]) },
    gzip: encoded('gzip'),
    br: encoded('br'),
  };
}

/**
 * The reply for a stored body: the representation the client accepts (a kept body, compressed on first use;
 * a Buffer, which no cache keeps, always as it is), and 304 when If-None-Match names that representation.
 */
export function storedReply(req: GetRequest, body: CompressedBody | Buffer, reps: Representations): Reply {
  const coding = body instanceof CompressedBody ? body.codingFor(req.acceptEncoding) : undefined;
  const chosen = coding === undefined ? reps.identity : reps[coding];
  const bytes = body instanceof CompressedBody ? (coding === undefined ? body.identity : (body.bytes(coding) ?? body.identity)) : body;
  return ifNoneMatchHits(req.ifNoneMatch, chosen.etag)
    ? { status: 304, headers: chosen.headers.notModified, body: bytes }
    : { status: 200, headers: chosen.headers.ok, body: bytes };
}
