// Content codings (RFC 9110 §8.4): which one a client accepts (Accept-Encoding), and bodies compressed once
// and kept beside their identity bytes, so that a body sent many times is compressed at most once per coding.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import { Lru } from '../../shared/lru.ts';

export type ContentCoding = 'br' | 'gzip';

/**
 * Smaller bodies go as they are: below about a kilobyte a compressed body saves less than a packet, and the
 * work and the Vary header are not worth it.
 */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * How hard to compress. `kept`: bodies compressed once and sent many times (static files, the reference page,
 * cached entries and pages). They are compressed on the request that first asks, so brotli stays at a middle
 * quality: its top qualities take many times longer on a page, a stall that every other request on the worker
 * would wait behind, for few bytes saved. `perRequest`: a body made for one website page, where the time is
 * paid on every request. `once`: an API body no cache keeps (a search page or an entry on its first
 * sighting), on the API's hot path: the lightest settings, which still take most of the bytes off a page
 * for a small part of what making it costs (the bench's compression section).
 */
const EFFORT = {
  kept: { gzip: 9, br: 5 },
  perRequest: { gzip: 6, br: 4 },
  once: { gzip: 1, br: 2 },
} as const;
export type Effort = keyof typeof EFFORT;

export function compress(body: Buffer, coding: ContentCoding, effort: Effort): Buffer {
  if (coding === 'gzip') return gzipSync(body, { level: EFFORT[effort].gzip });
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: EFFORT[effort].br,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}

/**
 * Accept-Encoding values seen, with their outcome (null: no coding): clients send a handful of distinct
 * values, and a client sending many cannot grow the worker.
 */
const NEGOTIATED_ENTRIES = 64;
const negotiated = new Lru<ContentCoding | null>(NEGOTIATED_ENTRIES);

/**
 * The coding to send for an Accept-Encoding value: br when accepted at least as much as gzip, else gzip, else
 * none. q=0 refuses a coding (RFC 9110 §12.5.3); `*` stands for any coding not named.
 */
export function negotiate(acceptEncoding: string | undefined): ContentCoding | undefined {
  if (!acceptEncoding) return undefined;
  const known = negotiated.get(acceptEncoding);
  if (known !== undefined) return known ?? undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q') q = Number(value);
    }
    if (!Number.isNaN(q)) weights.set(name.trim(), q);
  }
  const weight = (coding: string): number => weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  const chosen: ContentCoding | undefined = br > 0 && br >= gzip ? 'br' : gzip > 0 ? 'gzip' : undefined;
  negotiated.set(acceptEncoding, chosen ?? null);
  return chosen;
}

/**
 * An entity tag for one coding of a body: a compressed representation is another representation, so its
 * strong validator must differ from the identity one's (RFC 9110 §8.8.3), as Apache's "-gzip" suffix does.
 */
export function encodedEtag(etag: string, coding: ContentCoding): string {
  return `${etag.slice(0, -1)}-${coding}"`;
}

/**
 * A body sent many times, with its compressed forms made on first use and kept: compression happens at most
 * once per coding for as long as the body is kept (by a cache, or for the process). A coding that would not
 * make the body smaller is never used for it.
 */
export class CompressedBody {
  // Fields, not a map: one of these is made per entry looked up, most of which are never compressed.
  #gzip: Buffer | null | undefined;
  #br: Buffer | null | undefined;

  constructor(
    readonly identity: Buffer,
    private readonly effort: Effort = 'kept',
  ) {}

  /** The coding to send to a client with this Accept-Encoding; undefined: send the identity bytes. */
  codingFor(acceptEncoding: string | undefined): ContentCoding | undefined {
    if (this.identity.length < COMPRESS_MIN_BYTES) return undefined;
    const coding = negotiate(acceptEncoding);
    if (coding === undefined) return undefined;
    return this.bytes(coding) === undefined ? undefined : coding;
  }

  /** The body in `coding`, compressing it now if it has not been; undefined when that would not shrink it. */
  bytes(coding: ContentCoding): Buffer | undefined {
    let encoded = coding === 'br' ? this.#br : this.#gzip;
    if (encoded === undefined) {
      const made = compress(this.identity, coding, this.effort);
      encoded = made.length < this.identity.length ? made : null;
      if (coding === 'br') this.#br = encoded;
      else this.#gzip = encoded;
    }
    return encoded ?? undefined;
  }

  /** Whether the body may vary by Accept-Encoding (responses then carry Vary: Accept-Encoding). */
  get varies(): boolean {
    return this.identity.length >= COMPRESS_MIN_BYTES;
  }
}

