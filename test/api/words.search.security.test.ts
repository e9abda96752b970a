// GET /api/v1/words: search text is data, never query syntax; hostile values never reach a 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { errorOf, show, startApi } from './support.ts';

import type { WordsPage } from '../../services/shared/schemas.ts';
import type { Api } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 1 });
});
after(async () => {
  await api?.stack.stop();
});

const SYNTAX = [
  '"',
  '""',
  '*',
  'a*',
  'NEAR(ile omi)',
  'ile NEAR omi',
  'ile AND omi',
  'ile OR omi',
  'NOT ile',
  '-ile',
  '^ile',
  'col:ile',
  '(ile',
  "'; DROP TABLE entries; --",
  "1' OR '1'='1",
  '%',
  '_',
  '\\',
  '\u0000',
  '\u0301',
  '\u202Eelí',
  '🙂',
  '{"$gt": ""}',
  // A letter to V8 that SQLite's Unicode tables class as a mark: quoted whole it would make a phrase, which
  // the gloss index refuses (a 500), so glossTokens splits there.
  'a\u19b0bc',
  'ọ̀a\u05b7bc',
];

describe('GET /api/v1/words security', () => {
  for (const q of SYNTAX) {
    test(`GET /api/v1/words - q=${JSON.stringify(q)} is data: 200, nothing executed`, async () => {
      const reply = await api.call(`/api/v1/words?q=${encodeURIComponent(q)}`, { key: api.key });
      assert.equal(reply.status, 200, show(reply));
      assert.ok(Array.isArray((reply.body as WordsPage).data));
    });
  }

  // uWS resets connections whose request head exceeds its 4 KiB buffer when it arrives in pieces, so the
  // longest values tested here stay under that (ọ is 9 bytes percent-encoded).
  test('GET /api/v1/words - an over-long q is refused before any search', async () => {
    const reply = await api.call(`/api/v1/words?q=${'ọ'.repeat(400)}`, { key: api.key });
    assert.equal(reply.status, 400, show(reply));
    assert.equal(errorOf(reply).code, 'invalid_parameter');
  });

  test('GET /api/v1/words - error messages never echo the language value back', async () => {
    const reply = await api.call(`/api/v1/words?language=${encodeURIComponent('<script>x</script>')}`, { key: api.key });
    assert.equal(reply.status, 400, show(reply));
    assert.ok(!reply.text.includes('script'), show(reply));
  });

  test('GET /api/v1/words - the entries table still answers after injection attempts', async () => {
    const reply = await api.call('/api/v1/words?q=omi&language=yo', { key: api.key });
    assert.equal((reply.body as WordsPage).data[0].exactForm, 'omi');
  });
});
