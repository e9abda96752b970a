// The website's routes on a real hyper-express app over the real test snapshot: statuses, headers, decoding,
// the sign-up form's outcomes. The meter is a scripted stand-in so that each outcome can be chosen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { createApp } from '../../services/api/app.ts';
import type { Deps } from '../../services/api/deps.ts';
import type { Meter, MeteringHealth, Registration, RegistrationInput } from '../../services/api/metering-client/meter.ts';
import { WorkerCounters } from '../../services/api/metrics/worker-stats.ts';
import { openSnapshot } from '../../snapshot/reader/reader.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';
import { MeteringUnavailableError, RateLimitedError } from '../../services/shared/domain-errors.ts';
import { freePort } from '../support/free-port.ts';
import { testSnapshotPath } from '../support/snapshot.ts';

/** A meter whose register() does what the test says; admit() is not used by pages. */
class ScriptedMeter implements Meter {
  next: 'ok' | 'rate_limited' | 'unavailable' = 'ok';
  calls: Array<{ input: RegistrationInput; clientIp: string }> = [];
  async admit(): Promise<never> {
    throw new Error('pages are not metered');
  }
  async register(input: RegistrationInput, clientIp: string): Promise<Registration> {
    this.calls.push({ input, clientIp });
    if (this.next === 'rate_limited') throw new RateLimitedError('too many');
    if (this.next === 'unavailable') throw new MeteringUnavailableError('down');
    const apiKey = `svc_live_${'0123456789'.repeat(4)}`;
    return { developer: { id: 'dev_1', name: input.name, email: input.email, plan: 'free' }, apiKey, keyPrefix: apiKey.slice(0, 17) };
  }
  async health(): Promise<MeteringHealth> {
    return { reachable: true, canCommit: true };
  }
  async close(): Promise<void> {}
}

let base = '';
let snapshot: Snapshot;
const meter = new ScriptedMeter();
const errors: Array<Record<string, unknown>> = [];
let stop = (): void => {};

before(async () => {
  snapshot = openSnapshot(testSnapshotPath());
  const port = await freePort();
  const deps: Deps = {
    config: { port, host: '127.0.0.1', natsUrl: 'nats://127.0.0.1:1', dataDir: '.tmp', snapshotPath: snapshot.meta.path, trustProxy: [], workerName: 'web-test', requestLog: { mode: 'all', sampleEvery: 1 }, operatorContact: { text: 'ops@example.org', href: 'mailto:ops@example.org' } },
    snapshot,
    meter,
    log: { info: () => {}, error: (f) => errors.push(f), flush: () => {} },
    stats: new WorkerCounters(),
    now: () => Date.parse('2025-11-22T12:00:00Z'),
  };
  const app = createApp(deps);
  await app.listen(port, '127.0.0.1');
  base = `http://127.0.0.1:${port}`;
  stop = () => {
    app.close();
    snapshot.close();
  };
});

after(() => stop());

async function get(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: string }> {
  const res = await fetch(base + path, { redirect: 'manual', ...init });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

function postForm(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return get('/developers', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('website routes', () => {
  it('website routes - every page answers 200 HTML with security headers and a cache policy', async () => {
    for (const path of ['/', '/search?q=omo', '/developers', '/docs', '/about', '/languages/hausa', '/languages/tigrinya']) {
      const res = await get(path);
      assert.equal(res.status, 200, `${path}: ${res.body.slice(0, 500)}`);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8', path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'self'; script-src 'self'; style-src 'self'/, path);
      assert.ok(res.headers.get('referrer-policy'), path);
      assert.match(res.headers.get('cache-control') ?? '', /^public, max-age=\d+$/, path);
      assert.equal(res.headers.get('x-ratelimit-limit'), null, `${path} is not metered`);
    }
  });

  it('website routes - the operator contact (OPERATOR_CONTACT) shows on /developers and /about', async () => {
    for (const path of ['/developers', '/about']) {
      const res = await get(path);
      assert.match(res.body, /<a href="mailto:ops@example\.org">ops@example\.org<\/a>/, `${path}: ${res.body}`);
    }
  });

  it('website routes - a search typed without tone marks finds tone-marked entries, marked lang', async () => {
    const res = await get('/search?q=omo&language=yo');
    assert.equal(res.status, 200);
    assert.match(res.body, /<a class="word" href="\/words\/[^"]+" lang="yo">ọmọ<\/a>/, res.body.slice(0, 4000));
    assert.match(res.body, /matched without tone marks/);
  });

  it('website routes - Search in keeps a search to the words of the language or to English meanings', async () => {
    const matchTypes = (body: string) => [...body.matchAll(/data-match="([a-z]+)"/g)].map((m) => m[1]);
    const words = await get('/search?q=go&language=yo&scope=headword');
    assert.equal(words.status, 200);
    assert.ok(matchTypes(words.body).length > 0 && matchTypes(words.body).every((t) => ['exact', 'folded', 'variant', 'form', 'inflected', 'prefix'].includes(t)), matchTypes(words.body).join());
    assert.match(words.body, /<option value="headword" selected>Words only<\/option>/);
    const meanings = await get('/search?q=go&language=yo&scope=meaning');
    assert.ok(matchTypes(meanings.body).length > 0 && matchTypes(meanings.body).every((t) => t === 'meaning' || t === 'gloss'), matchTypes(meanings.body).join());
    assert.match(meanings.body, /lang="yo">lọ<\/a>/);
    assert.ok(!/lang="yo">go<\/a>/.test(meanings.body), 'the Yoruba word go is not an English meaning');
    const both = await get('/search?q=go&language=yo&scope=all');
    assert.deepEqual(matchTypes(both.body), matchTypes((await get('/search?q=go&language=yo')).body));
    // Paging keeps the choice.
    const many = await get('/search?q=a&language=yo&scope=meaning');
    assert.match(many.body, /href="\/search\?q=a&amp;language=yo&amp;scope=meaning&amp;page=2" rel="next"/);
  });

  it('website routes - a language page by slug; its code redirects to the slug; an unknown one is a 404', async () => {
    const zulu = await get('/languages/zulu');
    assert.match(zulu.body, /<h1><span lang="zu">isiZulu<\/span> \(Zulu\)<\/h1>/, zulu.body.slice(0, 3000));
    const byCode = await get('/languages/zu');
    assert.deepEqual([byCode.status, byCode.headers.get('location')], [301, '/languages/zulu']);
    assert.equal((await get('/languages/klingon')).status, 404);
    const tigrinya = await get('/languages/tigrinya');
    assert.match(tigrinya.body, /corpus being prepared/);
  });

  it('website routes - a language without search text is browsed alphabetically', async () => {
    const res = await get('/search?language=igbo');
    assert.equal(res.status, 200);
    assert.equal([...res.body.matchAll(/<a class="word" href="\/words\/[^"]+" lang="ig">/g)].length, 20, res.body.slice(0, 3000));
  });

  it('website routes - the entry page decodes its percent-encoded slug and is cached for an hour', async () => {
    const { items } = snapshot.search({ q: 'ọmọ', language: 'yo', page: 1, limit: 1 });
    const slug = items[0].slug;
    const res = await get(`/words/${encodeURIComponent(slug)}`);
    assert.equal(res.status, 200, res.body.slice(0, 500));
    assert.match(res.body, /<h1 class="headword" lang="yo">ọmọ<\/h1>/);
    assert.match(res.body, /Licence/);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
  });

  it('website routes - an entry addressed by id redirects to its one shareable URL', async () => {
    const { items } = snapshot.search({ q: 'omi', language: 'yo', page: 1, limit: 1 });
    const res = await get(`/words/${items[0].id}`);
    assert.equal(res.status, 301);
    assert.equal(res.headers.get('location'), `/words/${encodeURIComponent(items[0].slug)}`);
  });

  it('website routes - unknown slugs and unknown pages get the 404 page with a search box', async () => {
    for (const path of ['/words/no-such-word-xyz', '/words/%E0%A4%A', '/nowhere']) {
      const res = await get(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8', path);
      assert.match(res.body, /role="search"/, path);
    }
    const api = await get('/api/v1/nowhere');
    assert.equal(api.status, 404);
    assert.match(api.headers.get('content-type') ?? '', /application\/json/, 'API paths keep the JSON error');
  });

  it('website routes - refused searches explain themselves with status 400', async () => {
    const cases: Array<[string, RegExp]> = [
      ['/search?q=omo&language=xx', /not one of the languages/],
      ['/search?q=omo&page=0', /Page must be a whole number/],
      ['/search?q=omo&page=10001', /Page must be a whole number/],
      [`/search?q=${'a'.repeat(201)}`, /at most 200 characters/],
      ['/search?q=omo&scope=everything', /not one of the choices of what to search in \(Words and meanings, Words only, English meanings only\)/],
    ];
    for (const [path, message] of cases) {
      const res = await get(path);
      assert.equal(res.status, 400, path);
      assert.match(res.body, message, path);
    }
  });

  it('website routes - /docs is the reference rendered on the server: every operation, no third-party script', async () => {
    const res = await get('/docs');
    assert.equal(res.status, 200, res.body.slice(0, 500));
    for (const [id, path] of [['searchWords', '/api/v1/words'], ['getWord', '/api/v1/words/{id}'], ['getWordOfTheDay', '/api/v1/word-of-the-day'], ['listLanguages', '/api/v1/languages'], ['getStats', '/api/v1/stats'], ['createDeveloper', '/api/v1/developers']]) {
      assert.ok(res.body.includes(`<li data-operation="${id}"><a href="#op-${id}">`), `${id} in the index`);
      assert.ok(res.body.includes(`<code class="op-path">${path}</code>`), path);
      assert.ok(res.body.includes(`<section class="op" id="op-${id}"`), `${id} section`);
    }
    const scripts = [...res.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(scripts.map((s) => s.replace(/\?v=.*/, '')), ['/assets/site.js', '/assets/docs.js']);
    // The page lists every field of every schema, and its samples are the day's word (a few KB from day to day):
    // about 66 KB once the entry has its inflection tables and each merged sense its source and licence.
    assert.ok(Buffer.byteLength(res.body) < 72 * 1024, `${Buffer.byteLength(res.body)} bytes`);
  });

  it('website routes - static assets are fingerprinted, immutable and gzipped', async () => {
    const page = await get('/docs');
    const src = /<link rel="stylesheet" href="(\/assets\/site\.css\?v=[^"]+)"/.exec(page.body)?.[1];
    assert.ok(src, `stylesheet linked: ${page.body.slice(0, 1000)}`);
    const res = await fetch(base + src, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(res.headers.get('content-encoding'), 'gzip');
    assert.match(await res.text(), /box-sizing/);
    const etag = res.headers.get('etag') ?? '';
    assert.equal((await fetch(base + src, { headers: { 'if-none-match': etag } })).status, 304);
  });
});

describe('website sign-up', () => {
  it('website sign-up - shows the key once, never cached, through the shared schema (email lower-cased)', async () => {
    meter.next = 'ok';
    const res = await postForm({ name: 'Ada', email: 'Ada@Example.ORG', organization: '', useCase: 'lessons', keyName: '' });
    assert.equal(res.status, 201, res.body.slice(0, 800));
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(res.body, /<code class="key" id="api-key">svc_live_0123456789/);
    assert.match(res.body, /Store this API key now/);
    const call = meter.calls.at(-1);
    assert.deepEqual({ ...call?.input }, { name: 'Ada', email: 'ada@example.org', useCase: 'lessons', keyName: 'default' }, 'an empty optional field counts as absent');
    assert.match(call?.clientIp ?? '', /127\.0\.0\.1/);
  });

  it('website sign-up - shows each validation error next to its field, keeps the values, calls nothing', async () => {
    const before = meter.calls.length;
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ name: '', email: 'a@b.org' }, 'name', /Enter your name/],
      [{ name: 'Ada', email: 'not-an-email' }, 'email', /Enter an email like name@example\.org/],
      [{ name: 'Ada', email: '' }, 'email', /Enter your email address/],
      [{ name: 'x'.repeat(201), email: 'a@b.org' }, 'name', /Enter a name of 200 characters or fewer/],
      [{ email: 'a@b.org' }, 'name', /Enter your name/],
    ];
    for (const [fields, field, message] of cases) {
      const res = await postForm(fields);
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.match(res.body, new RegExp(`<p class="error-text" id="f-${field}-error"><span class="visually-hidden">Error: </span>${message.source}`), JSON.stringify(fields));
      assert.match(res.body, new RegExp(`<li><a href="#f-${field}">${message.source}</a></li>`), 'the summary links to the field');
      assert.match(res.body, /<title>Error: Developers · /);
      if (fields.email) assert.ok(res.body.includes(`value="${fields.email}"`), 'value kept');
    }
    assert.equal(meter.calls.length, before);
  });

  it('website sign-up - rate_limited is said clearly with status 429 and Retry-After 900', async () => {
    meter.next = 'rate_limited';
    const res = await postForm({ name: 'Ada', email: 'ada@example.org' });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '900');
    assert.match(res.body, /Too many sign-ups from your network \(rate_limited\)/);
    assert.match(res.body, /try again in 15 minutes/);
  });

  it('website sign-up - metering down: 503, no key, values kept', async () => {
    meter.next = 'unavailable';
    const res = await postForm({ name: 'Ada', email: 'ada@example.org' });
    assert.equal(res.status, 503);
    assert.match(res.body, /Sign-up is unavailable right now/);
    assert.ok(!res.body.includes('svc_live_'));
    assert.ok(res.body.includes('value="ada@example.org"'));
    meter.next = 'ok';
  });
});
