// Memory a client can inflate: the search and word-of-the-day caches are keyed by the parsed, known parameters,
// the entry cache by the entry's one spelling (percent-encoded aliases add nothing), and query strings over the
// bound are refused before they are parsed or kept. An in-process app (so that its
// caches and heap can be read) in front of the real metering process, nats-server and test snapshot.
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, before, describe, test } from 'node:test';

import { MAX_QUERY_STRING_CHARS, queryCachesOf } from '../../services/api/http/query-keys.ts';
import { startInProcessStack } from '../support/stack.ts';

import type { InProcessStack } from '../support/stack.ts';

let stack: InProcessStack;
let key: string;
before(async () => {
  stack = await startInProcessStack();
  key = (await stack.keyOnPlan('institution')).apiKey;
});
after(async () => {
  await stack?.stop();
});

async function get(path: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(`${stack.baseUrl}${path}`, { headers: { 'x-api-key': key } });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** Every key each cache holds, by cache name. */
function cachedKeys(): Record<string, string[]> {
  return Object.fromEntries([...queryCachesOf(stack.app)].map(([name, cache]) => [name, [...cache.keys()]]));
}

function heapUsedAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('query caches', () => {
  test('query caches - junk parameters add no cache entries; a query of known parameters is kept by its text', async () => {
    // Each twice: the caches keep a key from its second sighting.
    for (let i = 0; i < 60; i++) {
      for (const path of [`/api/v1/words?q=omo&junk${i}=x`, `/api/v1/word-of-the-day?language=yo&pad=${i}`]) {
        for (let n = 0; n < 2; n++) {
          const reply = await get(path);
          assert.equal(reply.status, 200, `${path}: ${reply.status} ${reply.text.slice(0, 300)}`);
        }
      }
    }
    for (let n = 0; n < 2; n++) assert.equal((await get('/api/v1/words?q=omo&limit=20')).status, 200);
    const keys = cachedKeys();
    const junk = Object.entries(keys).flatMap(([name, held]) => held.filter((k) => /junk|pad/.test(k)).map((k) => `${name}: ${k}`));
    assert.deepEqual(junk, [], JSON.stringify(keys));
    assert.ok(keys['words by query text'].includes('q=omo&limit=20'), JSON.stringify(keys));
    assert.ok(keys.words.length <= 2, JSON.stringify(keys));
    assert.ok(keys['word of the day'].length <= 1, JSON.stringify(keys));
  });

  test('query caches - percent-encoded aliases and zero-padded ids of an entry share its one cache entry', async () => {
    const search = JSON.parse((await get('/api/v1/words?q=omo&limit=1')).text) as { data: { id: number; slug: string }[] };
    const { id, slug } = search.data[0];
    const encode = (text: string, at: number, upper = false): string => {
      const hex = text.charCodeAt(at).toString(16).padStart(2, '0');
      return `${text.slice(0, at)}%${upper ? hex.toUpperCase() : hex}${text.slice(at + 1)}`;
    };
    const ascii = [...slug].every((c) => c.charCodeAt(0) < 128);
    const aliases = [
      ...(ascii ? Array.from({ length: slug.length }, (_, i) => encode(slug, i)) : [encodeURIComponent(slug)]),
      ...(ascii ? Array.from({ length: slug.length }, (_, i) => encode(slug, i, true)) : []),
      // Ids are read up to 16 digits: each zero-padded spelling within that.
      ...Array.from({ length: Math.max(0, 16 - String(id).length) }, (_, i) => `${'0'.repeat(i + 1)}${id}`),
    ];
    const before = cachedKeys().entries.length;
    for (const path of [slug, String(id), ...aliases]) {
      for (let n = 0; n < 2; n++) {
        const reply = await get(`/api/v1/words/${path}`);
        assert.equal(reply.status, 200, `${path}: ${reply.status} ${reply.text.slice(0, 200)}`);
      }
    }
    const entries = cachedKeys().entries;
    assert.ok(entries.length - before <= 2, `the slug and the id at most, not ${aliases.length} aliases: ${JSON.stringify(entries)}`);
    assert.deepEqual(entries.filter((k) => k.includes('%') || /^0\d/.test(k)), []);
  });

  test('query caches - a query string over the bound is invalid_parameter, metered, and leaves nothing behind', async (t) => {
    const before = heapUsedAfterGc();
    // 40 KB of padding: uWS parses a head that arrives in one read up to about 512 KiB.
    const padding = 'x'.repeat(40_000);
    let answered = 0;
    for (let i = 0; i < 150; i++) {
      for (const path of [`/api/v1/words?q=omo&junk=${i}${padding}`, `/api/v1/word-of-the-day?pad=${i}${padding}`]) {
        for (let n = 0; n < 2; n++) {
          const reply = await get(path).catch(() => undefined);
          if (reply === undefined) continue;
          answered++;
          assert.equal(reply.status, 400, `${path.slice(0, 80)}: ${reply.status} ${reply.text.slice(0, 300)}`);
          const error = (JSON.parse(reply.text) as { error: { code: string; message: string } }).error;
          assert.equal(error.code, 'invalid_parameter', reply.text);
          assert.equal(error.message, `Invalid parameter 'query': the query string must be at most ${MAX_QUERY_STRING_CHARS} characters`);
          assert.equal(reply.headers.get('x-ratelimit-limit'), '500000', 'a refusal after the key resolved is metered');
        }
      }
    }
    assert.ok(answered >= 500, `${answered} of 600 requests answered`);
    const grown = heapUsedAfterGc() - before;
    t.diagnostic(`heap grew by ${grown} bytes over ${answered} padded requests`);
    const longest = Math.max(...Object.values(cachedKeys()).flat().map((k) => k.length));
    assert.ok(longest <= MAX_QUERY_STRING_CHARS + 16, `a cache holds a key of ${longest} characters`);
    assert.ok(grown < 4_000_000, `the heap grew by ${grown} bytes`);
  });
});
