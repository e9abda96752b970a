// What holds on every metered route, written once and run against each (spec: Authentication, Errors).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { INVALID_API_KEY_MESSAGE, MISSING_API_KEY_MESSAGE } from '../../services/shared/errors.ts';
import { errorOf, RATE_HEADERS, show, unknownKey } from './support.ts';

import type { Api, Reply } from './support.ts';

export interface MeteredRoute {
  /** e.g. GET /api/v1/words */
  name: string;
  /** A path that answers 200 with a valid key. */
  path: (api: Api) => string;
  /** A path that answers 400 on a valid key, when the route has parameters. */
  badParameterPath?: string;
  /** A path that answers 404 on a valid key, when the route can. */
  notFoundPath?: string;
}

function assertNoRateHeaders(reply: Reply): void {
  for (const name of RATE_HEADERS) assert.equal(reply.headers.get(name), null, `${name} must be absent: ${show(reply)}`);
}

function assertRateHeaders(reply: Reply): void {
  const [limit, remaining, used] = RATE_HEADERS.map((n) => reply.headers.get(n));
  assert.match(limit ?? '', /^[0-9]+$/, show(reply));
  assert.match(remaining ?? '', /^[0-9]+$/, show(reply));
  assert.match(used ?? '', /^[0-9]+$/, show(reply));
  assert.equal(Number(limit), 1000, `free plan limit: ${show(reply)}`);
  // Used is this request's unit number within the key's day (earlier tests used the same key); Remaining is
  // what is left after it.
  assert.ok(Number(used) >= 1 && Number(used) <= 1000, show(reply));
  assert.equal(Number(remaining), 1000 - Number(used), show(reply));
}

/** Registers the contract tests for one route; call inside describe() after `api` is set up. */
export function meteredContract(getApi: () => Api, route: MeteredRoute): void {
  const api = (): Api => getApi();

  test(`${route.name} - no key: 401 missing_api_key, verbatim, no rate-limit headers`, async () => {
    const reply = await api().call(route.path(api()));
    assert.equal(reply.status, 401, show(reply));
    assert.deepEqual(errorOf(reply), { code: 'missing_api_key', message: MISSING_API_KEY_MESSAGE });
    assertNoRateHeaders(reply);
    assert.equal(reply.headers.get('access-control-allow-origin'), '*');
  });

  test(`${route.name} - unknown, malformed or empty-Bearer keys: 401 invalid_api_key verbatim, no rate-limit headers`, async () => {
    for (const key of [unknownKey(), 'not-a-key', 'svc_live_', `${unknownKey()}0`]) {
      const reply = await api().call(route.path(api()), { key });
      assert.equal(reply.status, 401, show(reply));
      assert.deepEqual(errorOf(reply), { code: 'invalid_api_key', message: INVALID_API_KEY_MESSAGE });
      assertNoRateHeaders(reply);
    }
  });

  test(`${route.name} - valid key: 200 with X-RateLimit-Limit, -Remaining and -Used`, async () => {
    const reply = await api().call(route.path(api()), { key: api().key });
    assert.equal(reply.status, 200, show(reply));
    assertRateHeaders(reply);
    assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
  });

  test(`${route.name} - Authorization: Bearer is read when X-API-Key is absent or empty`, async () => {
    const bearer = { authorization: `Bearer ${api().key}` };
    const absent = await api().call(route.path(api()), { headers: bearer });
    assert.equal(absent.status, 200, show(absent));
    assertRateHeaders(absent);
    const empty = await api().call(route.path(api()), { headers: { ...bearer, 'x-api-key': '' } });
    assert.equal(empty.status, 200, show(empty));
  });

  test(`${route.name} - X-API-Key wins over Authorization; other schemes are not read`, async () => {
    const wrongFirst = await api().call(route.path(api()), {
      key: unknownKey(),
      headers: { authorization: `Bearer ${api().key}` },
    });
    assert.equal(wrongFirst.status, 401, show(wrongFirst));
    assert.equal(errorOf(wrongFirst).code, 'invalid_api_key');
    for (const authorization of [`bearer ${api().key}`, `Basic ${api().key}`, api().key, 'Bearer ', 'Bearer']) {
      const reply = await api().call(route.path(api()), { headers: { authorization } });
      assert.equal(reply.status, 401, `${authorization}: ${show(reply)}`);
      assert.equal(errorOf(reply).code, 'missing_api_key', show(reply));
      assertNoRateHeaders(reply);
    }
  });

  if (route.badParameterPath) {
    const path = route.badParameterPath;
    test(`${route.name} - a bad parameter on a valid key: 400 in the error shape, with rate-limit headers`, async () => {
      const reply = await api().call(path, { key: api().key });
      assert.equal(reply.status, 400, show(reply));
      assert.ok(['invalid_parameter', 'unsupported_language'].includes(errorOf(reply).code), show(reply));
      assertRateHeaders(reply);
      assert.equal(reply.headers.get('cache-control'), 'no-store');
    });
  }

  if (route.notFoundPath) {
    const path = route.notFoundPath;
    test(`${route.name} - nothing found on a valid key: 404 not_found, with rate-limit headers`, async () => {
      const reply = await api().call(path, { key: api().key });
      assert.equal(reply.status, 404, show(reply));
      assert.equal(errorOf(reply).code, 'not_found');
      assertRateHeaders(reply);
    });
  }

  test(`${route.name} - X-RateLimit-Used grows and is never repeated for one key`, async () => {
    const { apiKey } = await api().stack.register();
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const reply = await api().call(route.path(api()), { key: apiKey });
      assert.equal(reply.status, 200, show(reply));
      const used = reply.headers.get('x-ratelimit-used') ?? '';
      assert.ok(!seen.has(used), `used ${used} repeated: ${show(reply)}`);
      seen.add(used);
      assert.equal(Number(reply.headers.get('x-ratelimit-remaining')), 1000 - Number(used), show(reply));
    }
  });

  test(`${route.name} - POST answers not_found in the error shape`, async () => {
    const reply = await api().call(route.path(api()), { method: 'POST', key: api().key });
    assert.equal(reply.status, 404, show(reply));
    assert.equal(errorOf(reply).code, 'not_found');
  });

  test(`${route.name} - methods no resource answers are 501 not_implemented in the error shape`, async () => {
    for (const method of ['DELETE', 'PUT', 'PATCH']) {
      const reply = await api().call(route.path(api()), { method, key: api().key });
      assert.equal(reply.status, 501, show(reply));
      assert.equal(errorOf(reply).code, 'not_implemented');
    }
  });
}
