// GET /api/v1/word-of-the-day: one stable word per language per UTC day, the full entry plus the date,
// cached until the end of the day, ETag/304.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { show, startApi } from './support.ts';

import type { WordOfTheDay } from '../../services/shared/schemas.ts';
import type { Api } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 2 });
});
after(async () => {
  await api?.stack.stop();
});

const today = (): string => new Date().toISOString().slice(0, 10);
const wotd = async (query = '') => {
  const reply = await api.call(`/api/v1/word-of-the-day${query}`, { key: api.key });
  assert.equal(reply.status, 200, show(reply));
  return { reply, body: reply.body as WordOfTheDay };
};

describe('GET /api/v1/word-of-the-day', () => {
  test('GET /api/v1/word-of-the-day - per language: today\'s date, the full entry in that language, stable across workers', async () => {
    for (const language of ['ig', 'yo']) {
      const { body, reply } = await wotd(`?language=${language}`);
      assert.equal(body.date, today());
      assert.equal(body.language, language);
      assert.equal(body.entry.language, language);
      assert.ok(body.entry.source && body.entry.licence, show(reply));
      for (let i = 0; i < 4; i++) assert.equal((await wotd(`?language=${language}`)).reply.text, reply.text);
    }
  });

  test('GET /api/v1/word-of-the-day - the language may be a slug; without it one stable word across the active languages', async () => {
    assert.equal((await wotd('?language=yoruba')).reply.text, (await wotd('?language=yo')).reply.text);
    const all = await wotd();
    const languages = (await api.call('/api/v1/languages', { key: api.key })).body as { data: { code: string; status: string }[] };
    const active = languages.data.filter((l) => l.status === 'active').map((l) => l.code);
    assert.ok(active.includes(all.body.language), show(all.reply));
    assert.equal((await wotd()).reply.text, all.reply.text);
  });

  test('GET /api/v1/word-of-the-day - a named date gives that day\'s word; different days differ', async () => {
    const base = new Date();
    const days = [1, 2, 3, 4, 5].map((n) => new Date(base.getTime() + n * 86_400_000).toISOString().slice(0, 10));
    const words = new Set<number>();
    for (const date of days) {
      const { body } = await wotd(`?language=yo&date=${date}`);
      assert.equal(body.date, date);
      words.add(body.entry.id);
    }
    assert.equal(words.size, days.length, 'no repeats inside the schedule');
  });

  test('GET /api/v1/word-of-the-day - today is cached until 00:00 UTC; a named date like an entry', async () => {
    const { reply } = await wotd('?language=ig');
    const match = /^public, max-age=(\d+), s-maxage=(\d+)$/.exec(reply.headers.get('cache-control') ?? '');
    assert.ok(match, show(reply));
    const now = new Date();
    const toMidnight = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000;
    assert.ok(Math.abs(Number(match[1]) - toMidnight) < 60, `${match[1]} vs ${toMidnight}`);
    const named = await wotd(`?language=ig&date=${today()}`);
    assert.match(named.reply.headers.get('cache-control') ?? '', /max-age=3600/);
  });

  test('GET /api/v1/word-of-the-day - ETag tied to the snapshot and the day; If-None-Match gives 304', async () => {
    const { reply } = await wotd('?language=yo');
    const etag = reply.headers.get('etag') ?? '';
    assert.match(etag, /^"[^"]+"$/);
    const again = await api.call('/api/v1/word-of-the-day?language=yo', { key: api.key, headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304, show(again));
    assert.ok(again.headers.get('x-ratelimit-used'));
    const otherDay = await wotd(`?language=yo&date=2030-01-01`);
    assert.notEqual(otherDay.reply.headers.get('etag'), etag);
  });
});
