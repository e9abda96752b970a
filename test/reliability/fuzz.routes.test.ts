// Property-based hostile input against the other metered routes (entries by id or slug, word of the day,
// languages, stats) and against unknown routes and methods, over the real stack.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import fc from 'fast-check';

import { dateValue, hostileText, idSegment, languageValue, numberish, queryString } from './support/arbitraries.ts';
import { fuzz, INSTITUTION_LIMIT, startTarget } from './support/fixture.ts';
import { OPERATIONS } from './support/invariants.ts';

import type { Case, Target } from './support/fixture.ts';
import type { Expectation } from './support/invariants.ts';

let target: Target;

before(async () => {
  target = await startTarget();
});
after(async () => {
  await target?.close();
});

const keyed = (path: string, expect: Expectation, method = 'GET'): Case => ({
  request: { method, path, headers: [['X-API-Key', target.apiKey]] },
  expect,
});
const metered = (op: keyof typeof OPERATIONS, anyOf: number[]): Expectation => ({
  target: OPERATIONS[op],
  resolvedLimit: INSTITUTION_LIMIT,
  anyOf,
});

/** POST reaches a route or not_found; PUT, DELETE and PATCH are implemented for no resource (RFC 9110 §15.6.2). */
const expectedFor = (method: string): Expectation =>
  method === 'GET' || method === 'POST'
    ? { target: { kind: 'other' }, status: 404, code: 'not_found' }
    : { target: { kind: 'other' }, status: 501, code: 'not_implemented' };

describe('metered routes under hostile input', () => {
  test('fuzz - GET /api/v1/words/{id}: hostile ids and slugs give the entry or not_found, never more', async () => {
    const cases = fc
      .tuple(idSegment(target.realIds), fc.constantFrom('', '?x=1', '?page=2', '?limit=5', '?id=1'))
      .filter(([id]) => id !== '' && !id.includes('/') && !id.includes('?') && !id.includes('#'))
      .map(([id, query]) => keyed(`/api/v1/words/${id}${query}`, metered('entry', [200, 404])));
    await fuzz(target, cases, 1_600);
  });

  test('fuzz - real ids and slugs always give their entry', async () => {
    const cases = fc.constantFrom(...target.realIds).map((id) =>
      keyed(`/api/v1/words/${encodeURIComponent(id)}`, { ...metered('entry', [200]) }),
    );
    await fuzz(target, cases, 200);
  });

  test('fuzz - GET /api/v1/word-of-the-day with hostile language and date', async () => {
    const cases = queryString({ language: languageValue, date: dateValue }).map((q) =>
      keyed(`/api/v1/word-of-the-day${q ? `?${q}` : ''}`, metered('wotd', [200, 400, 404])),
    );
    await fuzz(target, cases, 1_000);
  });

  test('fuzz - GET /api/v1/languages and /api/v1/stats ignore or refuse junk parameters', async () => {
    const cases = fc
      .tuple(fc.constantFrom('languages', 'stats'), queryString({ page: numberish, limit: numberish, q: hostileText }))
      .map(([op, q]) => keyed(`/api/v1/${op}${q ? `?${q}` : ''}`, metered(op, [200, 400])));
    await fuzz(target, cases, 600);
  });

  test('fuzz - unknown routes answer not_found, methods no resource answers not_implemented, in the error shape', async () => {
    const path = fc.oneof(
      fc.constantFrom('/api/v1/wordz', '/api/v2/words', '/api/v1/words/1/extra', '/api/v1', '/api/v1/developers/1', '/api/v1/stats/x', '/api/v1/languages/ig', '/api/v1/word-of-the-day/x',
        '/api/v1/openapi.json/x', '/api/v1/%2e%2e/stats', '/api/v1/words/..%2F..%2Fstats', '/api/x',
        '/api/v1/words/1%2F2/3', '/api/v1/STATS', '/api/V1/stats'),
      hostileText.map((t) => `/api/v1/${encodeURIComponent(t).slice(0, 2000)}/x`),
    );
    const method = fc.constantFrom('GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH');
    const cases = fc.tuple(path, method).map(([p, m]) => keyed(p, expectedFor(m), m));
    await fuzz(target, cases, 400);
  });

  test('fuzz - non-GET methods on metered routes answer in the error shape', async () => {
    const cases = fc
      .tuple(fc.constantFrom('/api/v1/words', '/api/v1/words/1', '/api/v1/stats', '/api/v1/languages', '/api/v1/word-of-the-day'),
        fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH'))
      .map(([p, m]) => keyed(p, expectedFor(m), m));
    await fuzz(target, cases, 200);
  });

  test('fuzz - sent at least the requests the issue asks of this file', (t) => {
    t.diagnostic(`sent ${target.sent} requests; ${target.cutOff} with a head over 4 KiB cut off by uWS without an answer`);
    if (target.failed > 0) return t.skip(`${target.failed} properties failed early; their failures are the finding`);
    assert.ok(target.sent >= 4_000, `sent ${target.sent}`);
  });
});
