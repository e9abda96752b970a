// The website's static files (our CSS, scripts, fonts and icons), held in memory, fingerprinted for long caching
// and compressed once, on first request, in each coding asked for.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CompressedBody, encodedEtag } from '../http/compression.ts';
import { ifNoneMatchHits } from '../http/etag.ts';
import type { PipelineRequest, PipelineResponse } from '../http/exchange.ts';
import type { AssetUrls } from './layout.ts';
import { CACHE, SECURITY_HEADERS } from './respond.ts';

interface Asset {
  body: CompressedBody;
  type: string;
  etag: string;
  /** Text compresses; fonts and icons arrive compressed already. */
  compressible: boolean;
}

export interface StaticFiles {
  /** URL path → file. */
  files: ReadonlyMap<string, Asset>;
  urls: AssetUrls;
}

/**
 * Our asset folder sits beside this module under tsx; the production bundle (dist/api.mjs) runs from the
 * repository root with services/ deployed alongside, so both places are tried.
 */
function ourAssetsDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.join(here, 'assets'),
    path.resolve(here, '..', 'services', 'api', 'web', 'assets'),
    path.resolve('services', 'api', 'web', 'assets'),
  ];
  const found = candidates.find((dir) => existsSync(path.join(dir, 'site.css')));
  if (!found) throw new Error(`website assets not found; looked in ${candidates.join(', ')}`);
  return found;
}

function asset(file: string, type: string): Asset {
  return bytesAsset(readFileSync(file), type);
}

function bytesAsset(body: Buffer, type: string): Asset {
  const compressible = /^text\/|svg/.test(type);
  return { body: new CompressedBody(body), type, compressible, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` };
}

/** The fonts site.css names, fingerprinted in its url()s once at start so that they too can be cached for good. */
const FONT_FILES = ['noto-sans-400.woff2', 'noto-sans-700.woff2', 'noto-sans-ethiopic-400.woff2', 'noto-sans-ethiopic-700.woff2'] as const;
const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
/** URL path, file in our assets folder, type; site.css, whose font URLs are fingerprinted, comes after them. */
const FILES: readonly (readonly [string, string, string])[] = [
  ['/assets/site.js', 'site.js', JS],
  ['/assets/docs.js', 'docs.js', JS],
  ['/assets/favicon.svg', 'favicon.svg', 'image/svg+xml'],
  // Asked for by clients that read no <link rel="icon">.
  ['/favicon.ico', 'favicon.ico', 'image/vnd.microsoft.icon'],
  // The fonts' licences (SIL OFL 1.1) travel with the fonts.
  ['/assets/fonts/OFL.txt', 'fonts/OFL.txt', 'text/plain; charset=utf-8'],
  ['/assets/fonts/OFL-Ethiopic.txt', 'fonts/OFL-Ethiopic.txt', 'text/plain; charset=utf-8'],
  ...FONT_FILES.map((f) => [`/assets/fonts/${f}`, `fonts/${f}`, 'font/woff2'] as const),
];
const STYLESHEET_PATH = '/assets/site.css';
/** Every URL path of a static file (a route each). */
export const STATIC_PATHS: readonly string[] = [...FILES.map(([urlPath]) => urlPath), STYLESHEET_PATH];

let loaded: StaticFiles | undefined;

/** Read once per process: the website's routes and the not-found page share the same files. */
export function loadStaticFiles(): StaticFiles {
  loaded ??= readStaticFiles();
  return loaded;
}

function readStaticFiles(): StaticFiles {
  const ours = ourAssetsDir();
  const files = new Map<string, Asset>(FILES.map(([urlPath, file, type]) => [urlPath, asset(path.join(ours, file), type)]));
  const versioned = (p: string) => `${p}?v=${files.get(p)?.etag.slice(1, 13)}`;
  let stylesheet = readFileSync(path.join(ours, 'site.css'), 'utf8');
  for (const f of FONT_FILES) stylesheet = stylesheet.replaceAll(`url("/assets/fonts/${f}")`, `url("${versioned(`/assets/fonts/${f}`)}")`);
  files.set(STYLESHEET_PATH, bytesAsset(Buffer.from(stylesheet), CSS));
  return {
    files,
    urls: {
      css: versioned(STYLESHEET_PATH),
      js: versioned('/assets/site.js'),
      docsJs: versioned('/assets/docs.js'),
      favicon: versioned('/assets/favicon.svg'),
    },
  };
}

export function serveStatic(req: PipelineRequest, res: PipelineResponse, file: Asset): void {
  // Fingerprinted URLs never change content; bare URLs are revalidated by ETag after an hour.
  res.header('Cache-Control', 'v' in req.query_parameters ? CACHE.immutable : CACHE.stable);
  res.header('X-Content-Type-Options', SECURITY_HEADERS['X-Content-Type-Options']);
  const coding = file.compressible ? file.body.codingFor(req.headers['accept-encoding']) : undefined;
  // Each coding is a representation of its own, with its own validator.
  const etag = coding ? encodedEtag(file.etag, coding) : file.etag;
  res.header('ETag', etag);
  if (file.compressible && file.body.varies) res.header('Vary', 'Accept-Encoding');
  if (ifNoneMatchHits(req.headers['if-none-match'], etag)) {
    res.status(304).send();
    return;
  }
  res.header('Content-Type', file.type);
  if (coding) res.header('Content-Encoding', coding);
  res.send(coding ? (file.body.bytes(coding) ?? file.body.identity) : file.body.identity);
}
