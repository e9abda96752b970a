// The TypeScript client's failures against a real stack: errors carry the spec's code, message, status and
// details; 429s are waited on as the contract says (quota_exceeded until 00:00 UTC, rate_limited 900 s, from
// Retry-After), with the waiting injected so nothing waits, or raised at once; registration's 500.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { DictionaryApiError, DictionaryClient, msUntilUtcMidnight } from '../../clients/typescript/src/index.ts';
import { freePort } from '../support/free-port.ts';
import { fakeClientIp, startStack } from '../support/stack.ts';
import { clientOf, failureOf, keyedClient, shown, Waits } from './support.ts';

import type { Stack } from '../support/stack.ts';

let stack: Stack;
before(async () => {
  stack = await startStack({ workers: 1 });
});
after(async () => {
  await stack?.stop();
});

describe('typescript client errors', () => {
  test('typescript client - not_found carries the spec code, message and the rate-limit headers', async () => {
    const { client } = await keyedClient(stack);
    const error = await failureOf(client.getWord('no-such-entry-zz'));
    assert.ok(error instanceof DictionaryApiError, String(error));
    assert.deepEqual([error.code, error.status, error.message], ['not_found', 404, 'No entry matches that id or slug.'], shown(error));
    assert.deepEqual(error.rateLimit, { limit: 1000, remaining: 999, used: 1 });
    assert.equal(error.details, undefined);
  });

  test('typescript client - invalid parameters name the parameter, the page bound of 10,000 included', async () => {
    const { client } = await keyedClient(stack);
    const cases = [
      { query: { q: 'a', limit: 500 }, code: 'invalid_parameter', names: "'limit'" },
      // The page maximum is the route's, absent from the OpenAPI description.
      { query: { q: 'a', page: 10_001 }, code: 'invalid_parameter', names: "'page'" },
      { query: { q: 'a', language: 'zz' }, code: 'unsupported_language', names: 'available codes' },
    ];
    for (const { query, code, names } of cases) {
      const error = await failureOf(client.searchWords(query));
      assert.deepEqual([error.code, error.status], [code, 400], shown(error));
      assert.ok(error.message.includes(names), shown(error));
    }
  });

  test('typescript client - a missing or invalid key is refused with the spec messages', async () => {
    const missing = await failureOf(clientOf(stack).stats());
    assert.deepEqual(
      [missing.code, missing.status, missing.message],
      ['missing_api_key', 401, 'No API key supplied. Send your key in the X-API-Key header. Get a free key at /developers.'],
    );
    const invalid = await failureOf(clientOf(stack, { apiKey: `svc_live_${'0'.repeat(40)}` }).stats());
    assert.deepEqual(
      [invalid.code, invalid.status, invalid.message],
      ['invalid_api_key', 401, 'That API key is not valid, has been revoked, or has expired.'],
    );
    assert.equal(invalid.rateLimit, null, 'no quota is computed for a refused key');
  });

  test('typescript client - register refuses a malformed email, naming it', async () => {
    const error = await failureOf(clientOf(stack).register({ name: 'Ada', email: 'not-an-address' }));
    assert.deepEqual([error.code, error.status], ['invalid_parameter', 400], shown(error));
    assert.match(error.message, /email/);
  });

  test('typescript client - quota_exceeded waits until 00:00 UTC (Retry-After), retries, and raises when waits run out', async () => {
    const { client, apiKey, email } = await keyedClient(stack);
    let next = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < 1000) {
          next++;
          statuses.push((await client.stats()).status);
        }
      }),
    );
    assert.deepEqual([...new Set(statuses)], [200]);
    assert.equal(statuses.length, 1000);

    const refused = await failureOf(client.stats());
    assert.deepEqual([refused.code, refused.status], ['quota_exceeded', 429], shown(refused));
    assert.deepEqual(refused.details, { plan: 'free', endpoint: 'GET /api/v1/stats', used: 1000, limit: 1000 });
    assert.match(refused.message, /00:00 UTC/);
    assert.deepEqual(refused.rateLimit, { limit: 1000, remaining: 0, used: 1000 });

    const waits = new Waits();
    const waiting = clientOf(stack, { waits, maxWaits: 2, apiKey: apiKey });
    const exhausted = await failureOf(waiting.stats());
    assert.equal(exhausted.code, 'quota_exceeded', shown(exhausted));
    assert.equal(waits.ms.length, 2, 'waited twice, retrying after each, then raised');
    for (const ms of waits.ms) {
      assert.equal(ms, (exhausted.retryAfterSeconds ?? -1) * 1000);
      assert.ok(Math.abs(ms - msUntilUtcMidnight(Date.now())) < 60_000, `the wait runs to 00:00 UTC: ${ms} ms`);
    }
    assert.deepEqual(waits.seen.map((w) => [w.code, w.attempt]), [['quota_exceeded', 1], ['quota_exceeded', 2]]);

    const bounded = new Waits();
    await failureOf(clientOf(stack, { waits: bounded, maxWaitMs: 60_000, apiKey: apiKey }).stats());
    assert.deepEqual(bounded.ms, [], 'a wait longer than maxWaitMs is not made');

    // What the wait stands for: the day's allowance comes back (here by a higher plan), and the retry succeeds.
    const upgraded = new Waits(async () => {
      const result = await stack.ops('developers', 'set-plan', email, 'team', '--all-keys');
      assert.equal(result.code, 0, result.stderr);
    });
    const after = await clientOf(stack, { waits: upgraded, apiKey: apiKey }).stats();
    assert.equal(upgraded.ms.length, 1);
    assert.equal(after.status, 200);
    assert.equal(after.rateLimit?.limit, 50_000);
  });

  test('typescript client - registration rate_limited waits the 900-second window, or raises at once', async () => {
    const address = fakeClientIp();
    const register = (client: DictionaryClient, n: number) => client.register({ name: `Dev ${n}`, email: `ts-rl-${n}-${Date.now()}@example.org` });
    for (let n = 1; n <= 5; n++) assert.equal((await register(clientOf(stack, { address }), n)).status, 201);

    const refused = await failureOf(register(clientOf(stack, { address, on429: 'throw' }), 6));
    // The description lists quota_exceeded for this 429; the route answers rate_limited with Retry-After: 900.
    assert.deepEqual([refused.code, refused.status, refused.retryAfterSeconds], ['rate_limited', 429, 900], shown(refused));
    assert.equal(refused.details, undefined);
    assert.equal(refused.rateLimit, null);

    const waits = new Waits();
    const limited = await failureOf(register(clientOf(stack, { address, waits, maxWaits: 1 }), 7));
    assert.equal(limited.code, 'rate_limited', shown(limited));
    assert.deepEqual(waits.ms, [900_000]);
    assert.deepEqual(waits.seen.map((w) => [w.code, w.waitMs, w.attempt]), [['rate_limited', 900_000, 1]]);

    // The default sleep is a real timer that the call's signal cancels.
    const abort = new AbortController();
    const real = new DictionaryClient({ baseUrl: stack.baseUrl, headers: { 'x-forwarded-for': address } });
    const pending = real.register({ name: 'Dev 8', email: `ts-rl-8-${Date.now()}@example.org` }, { signal: abort.signal });
    setTimeout(() => abort.abort(new Error('gave up waiting')), 200);
    await assert.rejects(pending, /gave up waiting/);
  });

  test('typescript client - registration answers 500 internal_error when metering is down', async () => {
    // The description lists no 500 for registration; the route answers one when it cannot register.
    await stack.killMetering();
    try {
      const error = await failureOf(clientOf(stack).register({ name: 'Ada', email: `ts-500-${Date.now()}@example.org` }));
      assert.deepEqual(
        [error.code, error.status, error.message],
        ['internal_error', 500, 'Something went wrong while handling the request. Please try again later.'],
        shown(error),
      );
    } finally {
      await stack.startMetering();
    }
  });

  test('typescript client - no answer at all is a network_error with status 0', async () => {
    // A port nothing listens on.
    const error = await failureOf(new DictionaryClient({ baseUrl: `http://127.0.0.1:${await freePort()}` }).languages());
    assert.deepEqual([error.code, error.status], ['network_error', 0], shown(error));
    assert.ok(error.cause, 'the fetch failure is kept as the cause');
  });
});
