// A stored body's representations on the metered routes: as it is, and compressed in each coding a client may
// accept, each with its own ETag and header blocks (encoded once). A body that a cache keeps (or one fixed for
// the process) is compressed once per coding; one that no cache keeps, lightly for its one response.
import { COMPRESS_MIN_BYTES, CompressedBody, compress, encodedEtag, negotiate } from './compression.ts';
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
 * The reply for a stored body: the representation the client accepts, and 304 when If-None-Match names that
 * representation. A kept body is compressed on first use and kept so; a Buffer, which no cache keeps (an
 * entry on its first sighting), is compressed for this response alone at the light `once` settings, so that
 * a first request is as small as a repeated one.
 */
export function storedReply(req: GetRequest, body: CompressedBody | Buffer, reps: Representations): Reply {
  if (!(body instanceof CompressedBody)) return onceReply(req, body, reps);
  const coding = body.codingFor(req.acceptEncoding);
  const chosen = coding === undefined ? reps.identity : reps[coding];
  const bytes = coding === undefined ? body.identity : (body.bytes(coding) ?? body.identity);
  return ifNoneMatchHits(req.ifNoneMatch, chosen.etag)
    ? { status: 304, headers: chosen.headers.notModified, body: bytes }
    : { status: 200, headers: chosen.headers.ok, body: bytes };
}

/** A body sent once: the 304 is decided before any compression, and a coding that does not shrink it is dropped. */
function onceReply(req: GetRequest, body: Buffer, reps: Representations): Reply {
  const coding = body.length >= COMPRESS_MIN_BYTES ? negotiate(req.acceptEncoding) : undefined;
  const chosen = coding === undefined ? reps.identity : reps[coding];
  if (ifNoneMatchHits(req.ifNoneMatch, chosen.etag)) return { status: 304, headers: chosen.headers.notModified, body };
  const encoded = coding === undefined ? undefined : compress(body, coding, 'once');
  return encoded !== undefined && encoded.length < body.length
    ? { status: 200, headers: chosen.headers.ok, body: encoded }
    : { status: 200, headers: reps.identity.headers.ok, body };
}
