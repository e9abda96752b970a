// POST /api/v1/developers: registration, the 201 body, idempotence on email, and a key that works.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { fakeClientIp } from '../support/stack.ts';
import { RATE_HEADERS, show, startApi } from './support.ts';

import type { Api, Reply } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 1 });
});
after(async () => {
  await api?.stack.stop();
});

interface Created {
  developer: { id: string; name: string; email: string; plan: string };
  apiKey: string;
  keyPrefix: string;
  warning: string;
  usage: string;
}

const register = (body: unknown): Promise<Reply> =>
  api.call('/api/v1/developers', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': fakeClientIp() },
    body: JSON.stringify(body),
  });

describe('POST /api/v1/developers', () => {
  test('POST /api/v1/developers - 201 with developer, key, prefix, warning and usage; free plan; no rate headers', async () => {
    const reply = await register({ name: 'Adaeze Okafor', email: 'Adaeze.Okafor@Example.ORG', organization: 'Lagos Lab' });
    assert.equal(reply.status, 201, show(reply));
    const body = reply.body as Created;
    assert.deepEqual(Object.keys(body), ['developer', 'apiKey', 'keyPrefix', 'warning', 'usage']);
    assert.deepEqual(Object.keys(body.developer).sort(), ['email', 'id', 'name', 'plan']);
    assert.equal(body.developer.name, 'Adaeze Okafor');
    assert.equal(body.developer.email, 'adaeze.okafor@example.org');
    assert.equal(body.developer.plan, 'free');
    assert.match(body.apiKey, /^svc_live_[0-9a-f]{40}$/);
    assert.equal(body.keyPrefix, body.apiKey.slice(0, 17));
    assert.match(body.warning, /store/i);
    assert.match(body.usage, /X-API-Key/);
    for (const name of RATE_HEADERS) assert.equal(reply.headers.get(name), null, show(reply));
    assert.equal(reply.headers.get('cache-control'), 'no-store');
    // No CORS: a page of another origin must not read a key (test/web/cross-origin.test.ts).
    assert.equal(reply.headers.get('access-control-allow-origin'), null, show(reply));
  });

  test('POST /api/v1/developers - the new key works at once on a metered route', async () => {
    const body = (await register({ name: 'Tunde', email: `tunde-${Date.now()}@example.org` })).body as Created;
    const reply = await api.call('/api/v1/languages', { key: body.apiKey });
    assert.equal(reply.status, 200, show(reply));
  });

  test('POST /api/v1/developers - idempotent on email: the same developer gets an additional key', async () => {
    const email = `chidi-${Date.now()}@example.org`;
    const first = (await register({ name: 'Chidi', email })).body as Created;
    const second = (await register({ name: 'Chidi', email: email.toUpperCase(), keyName: 'ci' })).body as Created;
    assert.equal(second.developer.id, first.developer.id);
    assert.notEqual(second.apiKey, first.apiKey);
    for (const key of [first.apiKey, second.apiKey]) {
      assert.equal((await api.call('/api/v1/stats', { key })).status, 200);
    }
  });

  test('POST /api/v1/developers - Content-Type with a charset and unknown fields are accepted', async () => {
    const reply = await api.call('/api/v1/developers', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-forwarded-for': fakeClientIp() },
      body: JSON.stringify({ name: 'Ngozi', email: `ngozi-${Date.now()}@example.org`, useCase: 'x'.repeat(900), extra: 1 }),
    });
    assert.equal(reply.status, 201, show(reply));
  });
});
