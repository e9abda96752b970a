// The TypeScript client (clients/typescript) against a real stack: every operation, search paged to its end,
// the rate-limit headers on results, and registration with keyName (which the OpenAPI description omits).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { PAGING_LIMIT } from '../../clients/typescript/src/index.ts';
import { startStack } from '../support/stack.ts';
import { clientOf, keyedClient } from './support.ts';

import type { WordSummary } from '../../clients/typescript/src/index.ts';
import type { Stack } from '../support/stack.ts';

let stack: Stack;
before(async () => {
  stack = await startStack({ workers: 1 });
});
after(async () => {
  await stack?.stop();
});

describe('typescript client', () => {
  test('typescript client - register returns the key once, with the developer, and stores keyName', async () => {
    const email = `Ada-${Date.now()}@Example.org`;
    const result = await clientOf(stack).register({ name: 'Ada', email, organization: 'School', useCase: 'class', keyName: 'laptop' });
    const reg = result.body;
    assert.equal(result.status, 201);
    assert.match(reg.apiKey, /^svc_live_[0-9a-f]{40}$/);
    assert.equal(reg.keyPrefix, reg.apiKey.slice(0, 17));
    assert.deepEqual({ ...reg.developer, id: typeof reg.developer.id }, { id: 'string', name: 'Ada', email: email.toLowerCase(), plan: 'free' });
    assert.match(reg.usage, /X-API-Key/);
    assert.match(reg.warning, /only once/);
    assert.equal(result.rateLimit, null, 'registration sends no X-RateLimit-* headers');
    const keys = await stack.ops('keys', 'list', email.toLowerCase(), '--json');
    assert.equal(keys.code, 0, keys.stderr);
    assert.deepEqual((JSON.parse(keys.stdout) as { keys: { name: string }[] }).keys.map((k) => k.name), ['laptop']);
  });

  test('typescript client - searchPages pages one result set until hasMore is false', async () => {
    const { client } = await keyedClient(stack);
    const pages = [];
    for await (const page of client.searchPages({ q: 'water' })) pages.push(page);
    const { total } = pages[0].body;
    assert.ok(total > PAGING_LIMIT, `a query of several pages: ${total}`);
    assert.equal(pages.length, Math.ceil(total / PAGING_LIMIT));
    assert.deepEqual(pages.map((p) => [p.body.page, p.body.perPage, p.body.hasMore]), pages.map((_, i) => [i + 1, PAGING_LIMIT, i < pages.length - 1]));
    const ids = pages.flatMap((p) => p.body.data.map((w) => w.id));
    assert.equal(ids.length, total);
    assert.equal(new Set(ids).size, total, 'no entry twice across pages');
    assert.deepEqual(pages.map((p) => p.rateLimit?.used), pages.map((_, i) => i + 1), 'one request per page against the quota');

    const words: WordSummary[] = [];
    for await (const word of client.searchAll({ q: 'water', limit: 50 })) words.push(word);
    assert.deepEqual(words.map((w) => w.id), ids, 'the same result set, whatever the page size');
  });

  test('typescript client - one page carries the envelope, Content-Range and the rate-limit headers', async () => {
    const { client } = await keyedClient(stack);
    const result = await client.searchWords({ q: 'omi', language: 'yo', limit: 5 });
    assert.deepEqual([result.body.page, result.body.perPage], [1, 5]);
    assert.ok(result.body.data.length > 0 && result.body.data.every((w) => w.language === 'yo'), JSON.stringify(result.body));
    assert.deepEqual(result.rateLimit, { limit: 1000, remaining: 999, used: 1 });
    assert.match(result.headers.get('content-range') ?? '', /^items 0-\d+\/\d+$/);

    const truncated = await client.searchWords({ q: 'a', limit: 1 });
    assert.equal(truncated.body.diagnostics?.truncated, true, JSON.stringify(truncated.body));
    assert.equal(truncated.body.diagnostics?.rankedLimit, truncated.body.total);
  });

  test('typescript client - getWord by id and by slug give the same entry', async () => {
    const { client } = await keyedClient(stack);
    const [first] = (await client.searchWords({ q: 'omi', language: 'yo', limit: 1 })).body.data;
    const byId = await client.getWord(first.id);
    const bySlug = await client.getWord(first.slug);
    assert.deepEqual(byId.body, bySlug.body);
    assert.deepEqual([byId.body.id, byId.body.slug, byId.body.headword], [first.id, first.slug, first.headword]);
    assert.ok(byId.body.source.name && byId.body.licence.spdx, JSON.stringify(byId.body));
    assert.equal(bySlug.rateLimit?.used, 2, 'GET /api/v1/words/{id} counts apart from search');
  });

  test('typescript client - wordOfTheDay for a language and a day, and for today', async () => {
    const { client } = await keyedClient(stack);
    const { body } = await client.wordOfTheDay({ language: 'yo', date: '2026-01-01' });
    assert.deepEqual([body.date, body.language, body.entry.language], ['2026-01-01', 'yo', 'yo']);
    assert.match((await client.wordOfTheDay()).body.date, /^\d{4}-\d{2}-\d{2}$/);
  });

  test('typescript client - languages and stats agree', async () => {
    const { client } = await keyedClient(stack);
    const languages = (await client.languages()).body.data;
    const stats = (await client.stats()).body;
    const active = Object.fromEntries(languages.filter((l) => l.status === 'active').map((l) => [l.code, l.wordCount]));
    assert.ok('ig' in active, JSON.stringify(languages));
    assert.equal(stats.totals.activeLanguages, Object.keys(active).length);
    assert.equal(stats.totals.languages, languages.length);
    assert.deepEqual(stats.entriesByLanguage, active);
  });

  test('typescript client - openapi returns the served description, no key needed', async () => {
    const result = await clientOf(stack).openapi();
    assert.equal(result.body.openapi, '3.1.0');
    assert.equal(result.body.info.version, '1.0.0');
    assert.ok('/api/v1/developers' in result.body.paths);
    assert.equal(result.rateLimit, null);
  });
});
