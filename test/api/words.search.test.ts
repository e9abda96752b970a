// GET /api/v1/words: the envelope, Content-Range, caching, paging and filters, on the real stack.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { show, startApi } from './support.ts';

import type { WordsPage } from '../../services/shared/schemas.ts';
import type { Api } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi();
});
after(async () => {
  await api?.stack.stop();
});

const search = async (query: string) => {
  const reply = await api.call(`/api/v1/words${query}`, { key: api.key });
  assert.equal(reply.status, 200, show(reply));
  return { reply, page: reply.body as WordsPage };
};

describe('GET /api/v1/words', () => {
  test('GET /api/v1/words - defaults: page 1, 20 per page, the envelope and the spec headers', async () => {
    const { reply, page } = await search('?language=yo');
    assert.equal(page.page, 1);
    assert.equal(page.perPage, 20);
    assert.equal(page.data.length, 20, show(reply));
    assert.ok(page.total > 20 && page.hasMore, show(reply));
    assert.equal(reply.headers.get('content-range'), `items 0-19/${page.total}`);
    assert.equal(reply.headers.get('cache-control'), 'public, s-maxage=300, stale-while-revalidate=600');
    assert.ok(page.data.every((w) => w.language === 'yo'));
  });

  test('GET /api/v1/words - pages of one query never overlap and Content-Range follows the page', async () => {
    const seen = new Set<number>();
    let total = 0;
    for (let p = 1; p <= 4; p++) {
      const { reply, page } = await search(`?language=ig&limit=7&page=${p}`);
      total = page.total;
      assert.equal(reply.headers.get('content-range'), `items ${(p - 1) * 7}-${(p - 1) * 7 + 6}/${total}`);
      for (const w of page.data) {
        assert.ok(!seen.has(w.id), `id ${w.id} repeated on page ${p}`);
        seen.add(w.id);
      }
    }
    assert.equal(seen.size, 28);
  });

  test('GET /api/v1/words - a cached page keeps its bytes while later pages are rendered over the scratch buffer', async () => {
    // The second request stores the page in the caches; the ones between render other pages.
    const first = await api.call('/api/v1/words?q=omi&limit=30', { key: api.key });
    await search('?q=omi&limit=30');
    for (const q of ['water', 'ọ̀run', 'ilé', 'fire']) await search(`?q=${encodeURIComponent(q)}&limit=5`);
    const again = await api.call('/api/v1/words?q=omi&limit=30', { key: api.key });
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('content-range'), first.headers.get('content-range'));
  });

  test('GET /api/v1/words - the last page has hasMore false; an empty page reports items 0-0/0', async () => {
    const { page: first } = await search('?q=water&limit=100');
    const lastPage = Math.max(1, Math.ceil(first.total / 100));
    const { page: last } = await search(`?q=water&limit=100&page=${lastPage}`);
    assert.equal(last.hasMore, false);
    const { reply, page } = await search('?q=qxzqxzqxzq');
    assert.deepEqual(page.data, []);
    assert.equal(page.total, 0);
    assert.equal(page.hasMore, false);
    assert.equal(reply.headers.get('content-range'), 'items 0-0/0');
  });

  test('GET /api/v1/words - language by code, slug and any case give the same page', async () => {
    const byCode = await search('?q=water&language=yo');
    const bySlug = await search('?q=water&language=yoruba');
    const upper = await search('?q=water&language=YO');
    assert.equal(bySlug.reply.text, byCode.reply.text);
    assert.equal(upper.reply.text, byCode.reply.text);
  });

  test('GET /api/v1/words - partOfSpeech filters the results', async () => {
    const { page } = await search('?language=yo&partOfSpeech=verb&limit=50');
    assert.ok(page.data.length > 0);
    assert.ok(page.data.every((w) => w.partOfSpeech === 'verb'), JSON.stringify(page.data.map((w) => w.partOfSpeech)));
  });

  test('GET /api/v1/words - without q a language is browsed (matchType browse)', async () => {
    const { page } = await search('?language=ig&limit=30');
    assert.ok(page.data.every((w) => w.matchType === 'browse'));
  });

  test('GET /api/v1/words - a repeated query answers the same bytes (page cache)', async () => {
    const a = await search('?q=house&limit=5');
    const b = await search('?q=house&limit=5');
    assert.equal(a.reply.text, b.reply.text);
  });

  test('GET /api/v1/words - the body, written as text around stored summaries, is canonical JSON', async () => {
    // Truncated (diagnostics), ranked with tone marks, by gloss, browsed, empty.
    for (const query of ['?q=a&limit=100', '?q=%E1%BB%8D%CC%80run&language=yo', '?q=water&partOfSpeech=noun', '?language=ig&page=3', '?q=qxzqxzqxzq']) {
      const { reply } = await search(query);
      assert.equal(reply.text, JSON.stringify(reply.body), `${query}: ${show(reply)}`);
    }
  });

  test('GET /api/v1/words - empty text filters count as absent', async () => {
    const { page } = await search('?q=&language=&partOfSpeech=&limit=3');
    assert.equal(page.perPage, 3);
  });

  test('GET /api/v1/words - page 10,000 and limit 100 are accepted; q of 200 characters too', async () => {
    const { page } = await search('?language=yo&page=10000&limit=100');
    assert.deepEqual(page.data, []);
    await search(`?q=${'a'.repeat(200)}`);
  });
});
