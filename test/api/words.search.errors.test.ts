// GET /api/v1/words: every bad parameter is invalid_parameter naming it; unknown languages list the codes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { errorOf, RATE_HEADERS, show, startApi } from './support.ts';

import type { Api } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 1 });
});
after(async () => {
  await api?.stack.stop();
});

const INVALID: Array<[query: string, parameter: string]> = [
  ['page=0', 'page'],
  ['page=-1', 'page'],
  ['page=10001', 'page'],
  ['page=99999999999999999999', 'page'],
  ['page=abc', 'page'],
  ['page=1.5', 'page'],
  ['page=1e3', 'page'],
  ['page=0x10', 'page'],
  ['page=', 'page'],
  ['page=1&page=2', 'page'],
  ['limit=0', 'limit'],
  ['limit=101', 'limit'],
  ['limit=ten', 'limit'],
  [`q=${'a'.repeat(201)}`, 'q'],
  ['q=a&q=b', 'q'],
  ['partOfSpeech=thing', 'partOfSpeech'],
  ['partOfSpeech=Noun', 'partOfSpeech'],
  ['q=go&scope=words', 'scope'],
  ['q=go&scope=Meaning', 'scope'],
  ['q=go&scope=meaning&scope=headword', 'scope'],
];

describe('GET /api/v1/words errors', () => {
  for (const [query, parameter] of INVALID) {
    test(`GET /api/v1/words - ${query.slice(0, 40)} is invalid_parameter naming ${parameter}`, async () => {
      const reply = await api.call(`/api/v1/words?${query}`, { key: api.key });
      assert.equal(reply.status, 400, show(reply));
      const error = errorOf(reply);
      assert.equal(error.code, 'invalid_parameter', show(reply));
      assert.ok(error.message.includes(`'${parameter}'`), show(reply));
      for (const name of RATE_HEADERS) assert.ok(reply.headers.get(name), `${name}: ${show(reply)}`);
    });
  }

  // ti, tigrinya: a corpus being prepared (under 1,000 glossed entries), so not an active language.
  for (const language of ['xx', 'english', 'ti', 'tigrinya', '1', '%27']) {
    test(`GET /api/v1/words - language=${language} is unsupported_language listing the active codes`, async () => {
      const reply = await api.call(`/api/v1/words?language=${language}`, { key: api.key });
      assert.equal(reply.status, 400, show(reply));
      const error = errorOf(reply);
      assert.equal(error.code, 'unsupported_language');
      assert.match(error.message, /available codes: ig, yo, af, mg, xh, zu, sw, ha, ss, ki, om, am\.$/, show(reply));
    });
  }

  test('GET /api/v1/words - the partOfSpeech message lists the allowed values', async () => {
    const reply = await api.call('/api/v1/words?partOfSpeech=thing', { key: api.key });
    assert.match(errorOf(reply).message, /noun, proper-noun, verb/);
  });

  test('GET /api/v1/words - the scope message names the parameter and lists the allowed values', async () => {
    const reply = await api.call('/api/v1/words?q=go&scope=words', { key: api.key });
    assert.equal(errorOf(reply).message, "Invalid parameter 'scope': must be one of: all, headword, meaning", show(reply));
  });
});
