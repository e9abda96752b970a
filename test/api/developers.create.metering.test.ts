// POST /api/v1/developers while the metering process is slow to answer: a registration waits for its commit
// longer than a lease's fail-fast deadline, so that a client is not told internal_error for a key metering then
// issues (lost to it, and counted against its address's five).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { REGISTRATION_TIMEOUT_MS } from '../../services/api/metering-client/register.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../services/shared/metering-protocol/client.ts';
import { fakeClientIp } from '../support/stack.ts';
import { show, startApi } from './support.ts';

import type { Api } from './support.ts';

/** How long metering stays frozen: past a lease's deadline, well within a registration's. */
const FROZEN_MS = DEFAULT_REQUEST_TIMEOUT_MS + 1_000;

let api: Api;
before(async () => {
  api = await startApi({ workers: 1 });
});
after(async () => {
  api?.stack.signalMetering('SIGCONT');
  await api?.stack.stop();
});

describe('POST /api/v1/developers with a slow metering process', () => {
  test('POST /api/v1/developers - a registration answered after a lease deadline is 201, and its key works', async () => {
    assert.ok(FROZEN_MS < REGISTRATION_TIMEOUT_MS - 1_000, 'the freeze must fit well within the registration deadline');
    api.stack.signalMetering('SIGSTOP');
    let reply;
    try {
      const pending = api.call('/api/v1/developers', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': fakeClientIp() },
        body: JSON.stringify({ name: 'Kemi', email: `kemi-${Date.now()}@example.org` }),
      });
      await sleep(FROZEN_MS);
      api.stack.signalMetering('SIGCONT');
      reply = await pending;
    } finally {
      api.stack.signalMetering('SIGCONT');
    }
    assert.equal(reply.status, 201, show(reply));
    const { apiKey } = reply.body as { apiKey: string };
    const used = await api.call('/api/v1/stats', { headers: { 'x-api-key': apiKey } });
    assert.equal(used.status, 200, show(used));
    assert.equal(used.headers.get('x-ratelimit-used'), '1', show(used));
  });
});
