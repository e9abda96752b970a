// Sends website responses with the headers every page carries: security headers, an explicit cache policy,
// and the body compressed when the client accepts it.
import { CompressedBody } from '../http/compression.ts';
import type { PipelineRequest, PipelineResponse } from '../http/exchange.ts';
import { sendCompressible } from '../http/send-compressible.ts';
import type { Html } from './html.ts';

/** Self only: no inline script or style, no third-party origin, no data: URLs. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
};

/** Cache policies by kind of page (the snapshot changes at most a few times a day). */
export const CACHE = {
  /** Entry pages and other pages that change only with the snapshot. */
  stable: 'public, max-age=3600',
  /** Pages with the word of the day or search results. */
  short: 'public, max-age=300',
  /** Not found: short, so a word added by the next snapshot appears soon. */
  notFound: 'public, max-age=60',
  /** A page showing a secret (the new API key) or the outcome of a POST. */
  noStore: 'no-store',
  /** Fingerprinted assets (?v=<content hash>). */
  immutable: 'public, max-age=31536000, immutable',
} as const;

/**
 * A page rendered once and sent many times (the reference, /about, the sign-up form): its compressed forms
 * are made on first use and kept with it.
 */
export function keptPage(page: Html): CompressedBody {
  return new CompressedBody(Buffer.from(page.value));
}

export function sendHtml(
  req: PipelineRequest,
  res: PipelineResponse,
  page: Html | CompressedBody,
  options: { status?: number; cache: string; headers?: Readonly<Record<string, string>> },
): void {
  if (res.aborted) return;
  res.status(options.status ?? 200);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.header(name, value);
  res.header('Cache-Control', options.cache);
  // Search results and form pages vary by nothing but the URL and the coding; no cookies are used anywhere.
  for (const [name, value] of Object.entries(options.headers ?? {})) res.header(name, value);
  res.header('Content-Type', 'text/html; charset=utf-8');
  sendCompressible(req, res, page instanceof CompressedBody ? page : Buffer.from(page.value));
}
