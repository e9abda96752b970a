// GET /api/v1/words/{id}: the full entry by id or slug, with source and licence, cache windows and ETag/304.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { RATE_HEADERS, show, startApi } from './support.ts';

import type { Entry, WordsPage } from '../../services/shared/schemas.ts';
import type { Api } from './support.ts';

let api: Api;
let ile: { id: number; slug: string };
before(async () => {
  api = await startApi({ workers: 1 });
  const page = (await api.call('/api/v1/words?q=il%C3%A9&language=yo&limit=1', { key: api.key })).body as WordsPage;
  ile = { id: page.data[0].id, slug: page.data[0].slug };
});
after(async () => {
  await api?.stack.stop();
});

describe('GET /api/v1/words/{id}', () => {
  test('GET /api/v1/words/{id} - by integer id: the full entry with source and licence, its own and each example\'s', async () => {
    const reply = await api.call(`/api/v1/words/${ile.id}`, { key: api.key });
    assert.equal(reply.status, 200, show(reply));
    const entry = reply.body as Entry;
    assert.equal(entry.id, ile.id);
    assert.equal(entry.exactForm, 'ilé');
    assert.equal(entry.language, 'yo');
    assert.ok(entry.source.name && entry.licence.spdx, show(reply));
    for (const example of entry.examples) assert.ok(example.source.id && example.licence.spdx);
  });

  test('GET /api/v1/words/{id} - by slug, plain or percent-encoded, the same bytes as by id', async () => {
    const byId = await api.call(`/api/v1/words/${ile.id}`, { key: api.key });
    const bySlug = await api.call(`/api/v1/words/${ile.slug}`, { key: api.key });
    const encoded = await api.call(`/api/v1/words/${ile.slug.split('').map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`, { key: api.key });
    assert.equal(bySlug.status, 200, show(bySlug));
    assert.equal(bySlug.text, byId.text);
    assert.equal(encoded.text, byId.text, show(encoded));
  });

  test('GET /api/v1/words/{id} - cache windows longer than search, an ETag, and 304 on If-None-Match (still metered)', async () => {
    const reply = await api.call(`/api/v1/words/${ile.id}`, { key: api.key });
    assert.equal(reply.headers.get('cache-control'), 'public, max-age=3600, s-maxage=86400, stale-while-revalidate=604800');
    const etag = reply.headers.get('etag') ?? '';
    assert.match(etag, /^"[^"]+"$/);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await api.call(`/api/v1/words/${ile.slug}`, { key: api.key, headers: { 'if-none-match': ifNoneMatch } });
      assert.equal(again.status, 304, `${ifNoneMatch}: ${show(again)}`);
      assert.equal(again.text, '');
      assert.equal(again.headers.get('etag'), etag);
      for (const name of RATE_HEADERS) assert.ok(again.headers.get(name), `${name}: ${show(again)}`);
      assert.ok(Number(again.headers.get('x-ratelimit-used')) > Number(reply.headers.get('x-ratelimit-used')));
    }
    const stale = await api.call(`/api/v1/words/${ile.id}`, { key: api.key, headers: { 'if-none-match': '"old-version"' } });
    assert.equal(stale.status, 200);
  });

  test('GET /api/v1/words/{id} - the slug typed with tone marks in NFD still finds nothing but never fails', async () => {
    const reply = await api.call(`/api/v1/words/${encodeURIComponent('ile\u0301')}`, { key: api.key });
    assert.ok([200, 404].includes(reply.status), show(reply));
  });
});
