// Compressed responses: Accept-Encoding honoured (br, gzip) for bodies over 1 KB with Vary: Accept-Encoding,
// an ETag per coding and 304s that keep working; kept bodies compressed once, others lightly for their response.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

import { startInProcessStack } from '../support/stack.ts';
import type { InProcessStack } from '../support/stack.ts';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent (compressed where the response says so). */
  bytes: Buffer;
}

let stack: InProcessStack;
let key = '';
before(async () => {
  stack = await startInProcessStack();
  key = (await stack.register()).apiKey;
});
after(async () => {
  await stack?.stop();
});

/** A GET whose body is read as it came off the wire (fetch would decode it). */
function get(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(`${stack.baseUrl}${path}`, { headers: { 'x-api-key': key, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

function decoded(reply: Raw): string {
  const coding = reply.bytes.length === 0 ? undefined : reply.headers['content-encoding'];
  const bytes = coding === 'br' ? brotliDecompressSync(reply.bytes) : coding === 'gzip' ? gunzipSync(reply.bytes) : reply.bytes;
  return bytes.toString('utf8');
}

const show = (reply: Raw): string => `${reply.status} ${JSON.stringify(reply.headers)} ${decoded(reply).slice(0, 300)}`;

/** An entry whose JSON is over 1 KB, found through the API. */
async function largeEntrySlug(): Promise<string> {
  for (const q of ['omi', 'ile', 'ego', 'ọmọ']) {
    const page = JSON.parse(decoded(await get(`/api/v1/words?q=${encodeURIComponent(q)}&limit=50`))) as { data: Array<{ slug: string }> };
    for (const { slug } of page.data) {
      const entry = await get(`/api/v1/words/${encodeURIComponent(slug)}`);
      if (entry.bytes.length > 1500) return slug;
    }
  }
  throw new Error('no entry over 1.5 KB');
}

describe('compression', () => {
  it('compression - an entry is compressed from its first sighting on, and kept compressed once cached', async () => {
    const slug = await largeEntrySlug();
    // A fresh key for the worker's cache: the entry by its id (its slug was seen while finding it; an alias of
    // the slug, percent-encoded, is the same key).
    const { id } = JSON.parse(decoded(await get(`/api/v1/words/${encodeURIComponent(slug)}`))) as { id: number };
    const path = `/api/v1/words/${id}`;
    const first = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(first.status, 200, show(first));
    assert.equal(first.headers['content-encoding'], 'br', `first sighting: ${show(first)}`);
    assert.equal(first.headers.vary, 'Accept-Encoding, X-API-Key');
    const identity = decoded(first);
    assert.ok(first.bytes.length < identity.length / 2, `first: ${first.bytes.length} of ${identity.length} bytes`);
    const second = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(second.headers['content-encoding'], 'br', show(second));
    assert.equal(decoded(second), identity, 'the same entry');
    assert.ok(second.bytes.length < identity.length / 2, `${second.bytes.length} of ${identity.length} bytes`);
    assert.equal(second.headers.etag, first.headers.etag, 'one validator per coding, first sighting or kept');
    assert.match(String(second.headers.etag), /-br"$/);
    assert.equal(second.headers.vary, 'Accept-Encoding, X-API-Key');
    const gzip = await get(path, { 'accept-encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip', show(gzip));
    assert.equal(decoded(gzip), identity);
    assert.equal(gzip.headers.etag, `${first.headers.etag?.slice(0, -4)}-gzip"`);
    const none = await get(path);
    assert.equal(none.headers['content-encoding'], undefined);
    assert.equal(none.headers.etag, `${first.headers.etag?.slice(0, -4)}"`);
    assert.equal(none.bytes.toString('utf8'), identity);
  });

  it('compression - 304s keep working: If-None-Match is compared with the validator of the coding sent', async () => {
    const slug = await largeEntrySlug();
    const path = `/api/v1/words/${encodeURIComponent(slug)}`;
    await get(path, { 'accept-encoding': 'gzip' });
    const gzip = await get(path, { 'accept-encoding': 'gzip' });
    const etag = String(gzip.headers.etag);
    assert.match(etag, /-gzip"$/, show(gzip));
    const revalidated = await get(path, { 'accept-encoding': 'gzip', 'if-none-match': etag });
    assert.equal(revalidated.status, 304, show(revalidated));
    assert.equal(revalidated.headers.etag, etag);
    assert.equal(revalidated.headers.vary, 'Accept-Encoding, X-API-Key');
    assert.equal(revalidated.headers['content-encoding'], undefined, 'a 304 has no body to encode');
    assert.equal(revalidated.headers['x-ratelimit-limit'], '1000', 'a 304 is still metered');
    // Another coding's validator names another representation: the body is sent.
    const other = await get(path, { 'accept-encoding': 'br', 'if-none-match': etag });
    assert.equal(other.status, 200, show(other));
    const identityTag = etag.replace(/-gzip"$/, '"');
    assert.equal((await get(path, { 'if-none-match': identityTag })).status, 304, 'the identity validator still works');
  });

  it('compression - a search page is compressed from its first request, and kept compressed once cached', async () => {
    const path = `/api/v1/words?q=water&limit=30&page=1`;
    const first = await get(path, { 'accept-encoding': 'gzip' });
    const plain = await get(path);
    assert.equal(first.status, 200, show(first));
    assert.equal(first.headers['content-encoding'], 'gzip', 'first sighting: compressed for this request alone');
    assert.equal(first.headers.vary, 'Accept-Encoding, X-API-Key');
    assert.ok(plain.bytes.length > 1024, `${plain.bytes.length} bytes`);
    assert.equal(decoded(first), plain.bytes.toString('utf8'));
    assert.ok(first.bytes.length < plain.bytes.length / 2, `${first.bytes.length} of ${plain.bytes.length} bytes`);
    const brotli = await get('/api/v1/words?q=tree&limit=100', { 'accept-encoding': 'br' });
    assert.equal(brotli.headers['content-encoding'], 'br', 'a first search in brotli');
    for (let i = 0; i < 3; i++) {
      const again = await get(path, { 'accept-encoding': 'gzip' });
      assert.equal(again.headers['content-encoding'], 'gzip', show(again));
      assert.equal(decoded(again), plain.bytes.toString('utf8'));
      assert.equal(again.headers['content-range'], first.headers['content-range']);
    }
  });

  it('compression - bodies under 1 KB and errors go as they are; larger ones are compressed', async () => {
    for (const path of ['/api/v1/stats', '/api/v1/languages', '/api/v1/word-of-the-day?language=ig']) {
      const plain = await get(path);
      const asked = await get(path, { 'accept-encoding': 'gzip, br' });
      assert.equal(asked.status, 200, show(asked));
      assert.equal(asked.headers['content-encoding'], plain.bytes.length < 1024 ? undefined : 'br', `${path}, ${plain.bytes.length} bytes: ${show(asked)}`);
    }
    const missing = await get('/api/v1/words/no-such-entry-anywhere', { 'accept-encoding': 'gzip, br' });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(missing.bytes.toString('utf8')).error.code, 'not_found');
  });

  it('compression - the OpenAPI description, website pages, CSS and JS are compressed; fonts and icons are not', async () => {
    const cases: Array<[string, string | undefined]> = [
      ['/api/v1/openapi.json', 'br'],
      ['/docs', 'br'],
      ['/search?q=omo', 'br'],
      ['/about', 'br'],
    ];
    for (const [path, coding] of cases) {
      const reply = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(reply.status, 200, `${path}: ${show(reply)}`);
      assert.equal(reply.headers['content-encoding'], coding, `${path}: ${show(reply)}`);
      assert.equal(reply.headers.vary, 'Accept-Encoding', path);
      const plain = await get(path);
      assert.equal(decoded(reply), plain.bytes.toString('utf8'), `${path}: the same body`);
    }
    const page = decoded(await get('/'));
    const css = /href="(\/assets\/site\.css\?v=[^"]+)"/.exec(page)?.[1] ?? '';
    const gzippedCss = await get(css, { 'accept-encoding': 'gzip' });
    assert.equal(gzippedCss.headers['content-encoding'], 'gzip', css);
    const font = /url\("(\/assets\/fonts\/noto-sans-400\.woff2[^"]*)"\)/.exec(decoded(gzippedCss))?.[1] ?? '';
    const woff2 = await get(font, { 'accept-encoding': 'gzip, br' });
    assert.equal(woff2.status, 200, font);
    assert.equal(woff2.headers['content-type'], 'font/woff2');
    assert.equal(woff2.headers['content-encoding'], undefined, 'woff2 is compressed already');
    assert.equal(woff2.headers['cache-control'], 'public, max-age=31536000, immutable');
  });

  it('compression - a client that refuses a coding with q=0 does not get it', async () => {
    const path = '/api/v1/openapi.json';
    assert.equal((await get(path, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding'], 'gzip');
    assert.equal((await get(path, { 'accept-encoding': 'gzip;q=0' })).headers['content-encoding'], undefined);
    assert.equal((await get(path, { 'accept-encoding': 'identity' })).headers['content-encoding'], undefined);
    assert.equal((await get(path, { 'accept-encoding': '*' })).headers['content-encoding'], 'br');
  });
});

describe('favicon', () => {
  it('favicon - /favicon.ico is an icon, and every page links the SVG one', async () => {
    const icon = await get('/favicon.ico');
    assert.equal(icon.status, 200);
    assert.equal(icon.headers['content-type'], 'image/vnd.microsoft.icon');
    assert.deepEqual([...icon.bytes.subarray(0, 4)], [0, 0, 1, 0], 'an ICO header');
    const page = decoded(await get('/about'));
    const svg = /<link rel="icon" href="(\/assets\/favicon\.svg\?v=[^"]+)" type="image\/svg\+xml">/.exec(page)?.[1];
    assert.ok(svg, page.slice(0, 800));
    const reply = await get(svg);
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['content-type'], 'image/svg+xml');
  });
});
