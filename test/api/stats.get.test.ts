// GET /api/v1/stats: the totals object from the snapshot; ETag/304.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { show, startApi } from './support.ts';

import type { Stats } from '../../services/shared/schemas.ts';
import type { Api } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 1 });
});
after(async () => {
  await api?.stack.stop();
});

describe('GET /api/v1/stats', () => {
  test('GET /api/v1/stats - totals, counts by language and part of speech, and the snapshot identity', async () => {
    const reply = await api.call('/api/v1/stats', { key: api.key });
    assert.equal(reply.status, 200, show(reply));
    const stats = reply.body as Stats;
    assert.ok(stats.totals.entries >= 13_500, show(reply));
    // Every language with 1,000 glossed entries in the real corpora (docs/snapshot.md, "Languages").
    assert.equal(stats.totals.activeLanguages, 12, show(reply));
    assert.equal(Object.keys(stats.entriesByLanguage).length, 12, show(reply));
    assert.equal(stats.totals.entries, Object.values(stats.entriesByLanguage).reduce((a, b) => a + b, 0));
    const health = (await api.call('/healthz')).body as { snapshot: { version: string } };
    assert.equal(stats.snapshot.version, health.snapshot.version);
    assert.equal(stats.snapshot.sample, false);
  });

  test('GET /api/v1/stats - an ETag tied to the snapshot version; 304 on If-None-Match', async () => {
    const reply = await api.call('/api/v1/stats', { key: api.key });
    const etag = reply.headers.get('etag') ?? '';
    const stats = reply.body as Stats;
    assert.ok(etag.includes(stats.snapshot.version), `${etag} vs ${stats.snapshot.version}`);
    const again = await api.call('/api/v1/stats', { key: api.key, headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304, show(again));
    assert.equal(again.text, '');
  });
});
