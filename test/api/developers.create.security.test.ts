// POST /api/v1/developers: the per-IP throttle (rate_limited, Retry-After 900), X-Forwarded-For honoured only
// from a trusted proxy, and no plaintext key in the workers' logs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { errorOf, RATE_HEADERS, show, startApi } from './support.ts';

import type { Api, Reply } from './support.ts';

let api: Api;
before(async () => {
  // No trusted proxy: the socket peer is the client, whatever X-Forwarded-For says.
  api = await startApi({ workers: 1, env: { TRUST_PROXY: '' } });
});
after(async () => {
  await api?.stack.stop();
});

const register = (n: number, forwardedFor: string): Promise<Reply> =>
  api.call('/api/v1/developers', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ name: `Dev ${n}`, email: `dev-${n}-${Date.now()}@example.org` }),
  });

describe('POST /api/v1/developers security', () => {
  test('POST /api/v1/developers - a forged X-Forwarded-For from an untrusted peer does not dodge the throttle', async () => {
    // startApi registered one key already from this address (the peer 127.0.0.1).
    const replies: Reply[] = [];
    for (let n = 0; n < 6; n++) replies.push(await register(n, `203.0.113.${n + 1}`));
    const statuses = replies.map((r) => r.status);
    assert.deepEqual(statuses.slice(0, 4), [201, 201, 201, 201], replies.map(show).join('\n'));
    const limited = replies.slice(4);
    for (const reply of limited) {
      assert.equal(reply.status, 429, show(reply));
      const error = errorOf(reply);
      assert.equal(error.code, 'rate_limited');
      assert.equal(reply.headers.get('retry-after'), '900');
      for (const name of RATE_HEADERS) assert.equal(reply.headers.get(name), null);
    }
  });

  test('POST /api/v1/developers - no plaintext key ever reaches the worker log', async () => {
    const issued = await api.call('/api/v1/developers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Late', email: `late-${Date.now()}@example.org` }),
    });
    // Throttled by now or not, the key of startApi() was used on this stack: it must not be in the logs.
    await api.call('/api/v1/stats', { key: api.key });
    await new Promise((r) => setTimeout(r, 100));
    const logs = api.stack.logs();
    assert.ok(!logs.includes(api.key), 'the plaintext key is in the log');
    assert.ok(logs.includes(api.key.slice(0, 17)), 'the key prefix is logged for the metered request');
    if (issued.status === 201) assert.ok(!logs.includes((issued.body as { apiKey: string }).apiKey));
  });
});
