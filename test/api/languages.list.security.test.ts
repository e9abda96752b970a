// GET /api/v1/languages with keys changed by the operator (ops CLI): revoked and suspended keys are refused as
// invalid_api_key on every worker within about a second; a raised plan shows in X-RateLimit-Limit.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { INVALID_API_KEY_MESSAGE } from '../../services/shared/errors.ts';
import { errorOf, RATE_HEADERS, show, startApi } from './support.ts';

import type { Api, Reply } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 2 });
});
after(async () => {
  await api?.stack.stop();
});

/** Polls until `predicate` holds for several consecutive replies (both workers), or 3 s pass. */
async function eventually(path: string, key: string, predicate: (r: Reply) => boolean): Promise<Reply> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const replies: Reply[] = [];
    for (let i = 0; i < 6; i++) replies.push(await api.call(path, { key, headers: { connection: 'close' } }));
    if (replies.every(predicate) || Date.now() > deadline) return replies.find((r) => !predicate(r)) ?? replies[0];
    await sleep(100);
  }
}

async function ops(...args: string[]): Promise<void> {
  const result = await api.stack.ops(...args);
  assert.equal(result.code, 0, `${args.join(' ')}: ${result.stdout}${result.stderr}`);
}

describe('GET /api/v1/languages key states', () => {
  test('GET /api/v1/languages - a revoked key is refused as invalid_api_key, without rate-limit headers', async () => {
    const { apiKey, keyPrefix } = await api.stack.register();
    assert.equal((await api.call('/api/v1/languages', { key: apiKey })).status, 200);
    await ops('keys', 'revoke', keyPrefix);
    const reply = await eventually('/api/v1/languages', apiKey, (r) => r.status === 401);
    assert.equal(reply.status, 401, show(reply));
    assert.deepEqual(errorOf(reply), { code: 'invalid_api_key', message: INVALID_API_KEY_MESSAGE });
    for (const name of RATE_HEADERS) assert.equal(reply.headers.get(name), null);
  });

  test('GET /api/v1/languages - a suspended developer\'s key is refused; reinstated, it works again', async () => {
    const { apiKey, email } = await api.stack.register();
    assert.equal((await api.call('/api/v1/languages', { key: apiKey })).status, 200);
    await ops('developers', 'suspend', email);
    assert.equal((await eventually('/api/v1/languages', apiKey, (r) => r.status === 401)).status, 401);
    await ops('developers', 'reinstate', email);
    assert.equal((await eventually('/api/v1/languages', apiKey, (r) => r.status === 200)).status, 200);
  });

  test('GET /api/v1/languages - a plan raised to team shows its limit in X-RateLimit-Limit', async () => {
    const { apiKey } = await api.stack.keyOnPlan('team');
    const reply = await eventually('/api/v1/languages', apiKey, (r) => r.headers.get('x-ratelimit-limit') === '50000');
    assert.equal(reply.headers.get('x-ratelimit-limit'), '50000', show(reply));
  });
});
