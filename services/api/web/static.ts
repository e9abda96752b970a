// The website's static files (our CSS, scripts, font and icon), held in memory, fingerprinted for long caching
// and gzipped once on first request.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'hyper-express';

import type { AssetUrls } from './layout.ts';
import { CACHE, SECURITY_HEADERS } from './respond.ts';

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
  gzip?: Buffer;
}

export interface StaticFiles {
  /** URL path → file. */
  files: ReadonlyMap<string, Asset>;
  urls: AssetUrls;
}

/** Below this size gzip saves too little to be worth a header. */
const MIN_GZIP_BYTES = 1024;

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
  const body = readFileSync(file);
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` };
}

let loaded: StaticFiles | undefined;

/** Read once per process: registerWebsite and the not-found handler share the same files. */
export function loadStaticFiles(): StaticFiles {
  loaded ??= readStaticFiles();
  return loaded;
}

function readStaticFiles(): StaticFiles {
  const ours = ourAssetsDir();
  const js = 'text/javascript; charset=utf-8';
  const css = 'text/css; charset=utf-8';
  const files = new Map<string, Asset>([
    ['/assets/site.css', asset(path.join(ours, 'site.css'), css)],
    ['/assets/site.js', asset(path.join(ours, 'site.js'), js)],
    ['/assets/docs.js', asset(path.join(ours, 'docs.js'), js)],
  ]);
  const versioned = (p: string) => `${p}?v=${files.get(p)?.etag.slice(1, 13)}`;
  return {
    files,
    urls: {
      css: versioned('/assets/site.css'),
      js: versioned('/assets/site.js'),
      docsJs: versioned('/assets/docs.js'),
    },
  };
}

export function serveStatic(req: Request, res: Response, file: Asset): void {
  // Fingerprinted URLs never change content; bare URLs are revalidated by ETag after an hour.
  res.header('Cache-Control', 'v' in req.query_parameters ? CACHE.immutable : CACHE.stable);
  res.header('ETag', file.etag);
  res.header('Vary', 'Accept-Encoding');
  res.header('X-Content-Type-Options', SECURITY_HEADERS['X-Content-Type-Options']);
  if (req.headers['if-none-match'] === file.etag) {
    res.status(304).send();
    return;
  }
  res.header('Content-Type', file.type);
  const acceptsGzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
  if (acceptsGzip && file.body.length >= MIN_GZIP_BYTES) {
    file.gzip ??= gzipSync(file.body, { level: 9 });
    res.header('Content-Encoding', 'gzip');
    res.send(file.gzip);
    return;
  }
  res.send(file.body);
}
