// GET /api/v1/stats: what a client can put in headers never changes the answer beyond the contract: odd
// If-None-Match values, oversized and repeated key headers, a body on a GET.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { errorOf, show, startApi, unknownKey } from './support.ts';

import type { Api } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 1 });
});
after(async () => {
  await api?.stack.stop();
});

describe('GET /api/v1/stats security', () => {
  test('GET /api/v1/stats - odd If-None-Match values give the full 200', async () => {
    for (const value of ['', 'W/', '"', '""', 'garbage', `"${'x'.repeat(2000)}"`]) {
      const reply = await api.call('/api/v1/stats', { key: api.key, headers: { 'if-none-match': value } });
      assert.equal(reply.status, 200, `${value}: ${show(reply)}`);
    }
  });

  test('GET /api/v1/stats - an oversized key is invalid_api_key, not an error of another kind', async () => {
    for (const key of ['x'.repeat(2000), `${unknownKey()} ${unknownKey()}`, 'svc_live_' + 'g'.repeat(40), "svc_live_' OR 1=1 --"]) {
      const reply = await api.call('/api/v1/stats', { key });
      assert.equal(reply.status, 401, show(reply));
      assert.equal(errorOf(reply).code, 'invalid_api_key');
    }
  });
});
