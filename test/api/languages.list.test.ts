// GET /api/v1/languages: every language, active and preparing, with real word counts; ETag/304.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { show, startApi } from './support.ts';

import type { Language, Stats } from '../../services/shared/schemas.ts';
import type { Api } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 1 });
});
after(async () => {
  await api?.stack.stop();
});

describe('GET /api/v1/languages', () => {
  test('GET /api/v1/languages - the 12 languages with 1,000 glossed entries active with their counts, the others preparing at zero', async () => {
    const reply = await api.call('/api/v1/languages', { key: api.key });
    assert.equal(reply.status, 200, show(reply));
    const { data } = reply.body as { data: Language[] };
    const byCode = new Map(data.map((l) => [l.code, l]));
    assert.equal(byCode.get('ig')?.status, 'active');
    assert.equal(byCode.get('yo')?.status, 'active');
    assert.ok((byCode.get('ig')?.wordCount ?? 0) >= 8000, show(reply));
    assert.ok((byCode.get('yo')?.wordCount ?? 0) >= 5500, show(reply));
    assert.equal(byCode.get('yo')?.slug, 'yoruba');
    for (const l of data.filter((x) => x.status === 'preparing')) assert.equal(l.wordCount, 0);
    assert.deepEqual(data.filter((l) => l.status === 'active').map((l) => l.code), ['ig', 'yo', 'af', 'mg', 'xh', 'zu', 'sw', 'ha', 'ss', 'ki', 'om', 'am'], show(reply));
    assert.equal(data.length, 24, show(reply));
    assert.deepEqual([byCode.get('ki')?.nativeName, byCode.get('ti')?.nativeName, byCode.get('ti')?.status], ['Gĩkũyũ', 'ትግርኛ', 'preparing']);
  });

  test('GET /api/v1/languages - counts agree with the stats totals', async () => {
    const languages = ((await api.call('/api/v1/languages', { key: api.key })).body as { data: Language[] }).data;
    const stats = (await api.call('/api/v1/stats', { key: api.key })).body as Stats;
    for (const l of languages) assert.equal(stats.entriesByLanguage[l.code] ?? 0, l.wordCount, l.code);
  });

  test('GET /api/v1/languages - cacheable, with an ETag; If-None-Match gives 304 and still counts', async () => {
    const reply = await api.call('/api/v1/languages', { key: api.key });
    assert.match(reply.headers.get('cache-control') ?? '', /^public, /);
    const etag = reply.headers.get('etag') ?? '';
    const again = await api.call('/api/v1/languages?anything=ignored', { key: api.key, headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304, show(again));
    assert.equal(Number(again.headers.get('x-ratelimit-used')), Number(reply.headers.get('x-ratelimit-used')) + 1);
    // Every header of the 200 but the body's own (Content-Type, Content-Encoding), each on a line of its own.
    const names = (r: typeof reply) => [...r.headers.keys()].filter((n) => !['date', 'uwebsockets', 'content-length'].includes(n)).sort();
    assert.deepEqual(names(again), names(reply).filter((n) => n !== 'content-type' && n !== 'content-encoding'));
    assert.equal(again.headers.get('etag'), etag);
    assert.equal(again.headers.get('access-control-allow-origin'), '*');
  });
});
