// GET /api/v1/word-of-the-day: hostile language and date values are refused in the error shape, never
// echoed and never a 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { errorOf, show, startApi } from './support.ts';

import type { Api } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 1 });
});
after(async () => {
  await api?.stack.stop();
});

const HOSTILE: Array<[string, string]> = [
  ['language', "yo' OR '1'='1"],
  ['language', '<img src=x onerror=alert(1)>'],
  ['language', '\u0000'],
  ['language', 'y'.repeat(3000)],
  ['date', "2025-01-01' --"],
  ['date', '<script>'],
  ['date', '9999-99-99'],
  ['date', '0000-00-00'],
  ['date', '\u0000'],
];

describe('GET /api/v1/word-of-the-day security', () => {
  for (const [name, value] of HOSTILE) {
    test(`GET /api/v1/word-of-the-day - ${name}=${JSON.stringify(value.slice(0, 30))} is a 400 that echoes nothing`, async () => {
      const reply = await api.call(`/api/v1/word-of-the-day?${name}=${encodeURIComponent(value)}`, { key: api.key });
      assert.equal(reply.status, 400, show(reply));
      assert.ok(['invalid_parameter', 'unsupported_language'].includes(errorOf(reply).code));
      assert.ok(!reply.text.includes('<') && !reply.text.includes("'1'"), show(reply));
    });
  }

  test('GET /api/v1/word-of-the-day - far past and future calendar days are answered, not crashed on', async () => {
    for (const date of ['0001-01-01', '1970-01-01', '9999-12-31']) {
      const reply = await api.call(`/api/v1/word-of-the-day?language=ig&date=${date}`, { key: api.key });
      assert.ok([200, 404].includes(reply.status), show(reply));
    }
  });
});
