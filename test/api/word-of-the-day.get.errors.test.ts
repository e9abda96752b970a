// GET /api/v1/word-of-the-day: malformed dates are invalid_parameter naming date; unknown or preparing
// languages are unsupported_language.
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

const BAD_DATES = ['2025-13-01', '2025-02-30', '2025-2-3', '20250101', 'today', '2025-01-01T00:00:00Z', ' 2025-01-01', '2025-01-01&date=2025-01-02'];

describe('GET /api/v1/word-of-the-day errors', () => {
  for (const date of BAD_DATES) {
    test(`GET /api/v1/word-of-the-day - date=${date} is invalid_parameter naming date`, async () => {
      const reply = await api.call(`/api/v1/word-of-the-day?date=${date.replace(/ /g, '%20')}`, { key: api.key });
      assert.equal(reply.status, 400, show(reply));
      const error = errorOf(reply);
      assert.equal(error.code, 'invalid_parameter');
      assert.ok(error.message.includes("'date'"), show(reply));
      for (const name of RATE_HEADERS) assert.ok(reply.headers.get(name));
    });
  }

  // ti and tigrinya: a corpus being prepared (under 1,000 glossed entries), so not active.
  for (const language of ['xx', 'ti', 'tigrinya', 'en']) {
    test(`GET /api/v1/word-of-the-day - language=${language} is unsupported_language listing the active codes`, async () => {
      const reply = await api.call(`/api/v1/word-of-the-day?language=${language}`, { key: api.key });
      assert.equal(reply.status, 400, show(reply));
      const error = errorOf(reply);
      assert.equal(error.code, 'unsupported_language');
      assert.match(error.message, /available codes: ig, yo, af, mg, xh, zu, sw, ha, ss, ki, om, am\.$/, show(reply));
    });
  }
});
