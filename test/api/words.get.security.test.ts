// GET /api/v1/words/{id}: hostile ids (SQL, traversal, encoded separators, control characters) are only data.
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

const HOSTILE = [
  "1'%20OR%20'1'='1",
  '1%20OR%201=1',
  "1;DROP%20TABLE%20entries;--",
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '1%2F2',
  '%0d%0aSet-Cookie:%20x=1',
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  '%F0%9F%98%80',
  '%ED%A0%80',
  '*',
  '%25',
];

describe('GET /api/v1/words/{id} security', () => {
  for (const id of HOSTILE) {
    test(`GET /api/v1/words/{id} - ${id} is a plain 404, nothing executed or reflected`, async () => {
      const reply = await api.call(`/api/v1/words/${id}`, { key: api.key });
      assert.equal(reply.status, 404, show(reply));
      assert.equal(errorOf(reply).code, 'not_found');
      assert.equal(reply.headers.get('set-cookie'), null);
      assert.ok(!/sqlite|SELECT|\/work\/|at .*\.ts/i.test(reply.text), show(reply));
    });
  }

  test('GET /api/v1/words/{id} - the service keeps answering after hostile ids', async () => {
    const reply = await api.call('/api/v1/languages', { key: api.key });
    assert.equal(reply.status, 200, show(reply));
  });
});
