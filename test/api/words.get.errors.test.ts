// GET /api/v1/words/{id}: anything that names no entry is 404 not_found, broken encodings included.
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

const MISSING = [
  '999999999',
  '0',
  '-1',
  '1.5',
  '99999999999999999999999999',
  'no-such-slug',
  'il%C3%A9',
  '%ZZ',
  '%C3',
  '%E0%A4%A',
  '%00',
  'a'.repeat(201),
  'a'.repeat(3000),
];

describe('GET /api/v1/words/{id} errors', () => {
  for (const id of MISSING) {
    test(`GET /api/v1/words/{id} - ${id.slice(0, 30)} is 404 not_found with rate-limit headers`, async () => {
      const reply = await api.call(`/api/v1/words/${id}`, { key: api.key });
      assert.equal(reply.status, 404, show(reply));
      assert.deepEqual(errorOf(reply), { code: 'not_found', message: 'No entry matches that id or slug.' });
      for (const name of RATE_HEADERS) assert.ok(reply.headers.get(name), show(reply));
      assert.equal(reply.headers.get('cache-control'), 'no-store');
      assert.equal(reply.headers.get('etag'), null);
    });
  }

  test('GET /api/v1/words/{id} - page and limit are not parameters of this route (ignored)', async () => {
    const reply = await api.call('/api/v1/words/999999999?page=abc&limit=0', { key: api.key });
    assert.equal(reply.status, 404, show(reply));
  });
});
