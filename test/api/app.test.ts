// The worker as a whole: CORS, unknown routes and methods, two workers on one port, the per-request log
// line, and a clean exit on SIGTERM.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { errorOf, show, startApi } from './support.ts';

import type { Api } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 2 });
});
after(async () => {
  await api?.stack.stop();
});

const logLines = (): Array<Record<string, unknown>> =>
  api.stack
    .logs()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('API app', () => {
  test('API app - CORS preflight allows X-API-Key, Authorization and Content-Type from any origin', async () => {
    const reply = await api.call('/api/v1/words?q=a', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://example.org',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key, authorization',
      },
    });
    assert.equal(reply.status, 204, show(reply));
    assert.equal(reply.headers.get('access-control-allow-origin'), '*');
    const allowed = (reply.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['x-api-key', 'authorization', 'content-type']) assert.ok(allowed.includes(header), allowed);
    assert.match(reply.headers.get('access-control-allow-methods') ?? '', /GET/);
  });

  test('API app - responses expose the rate-limit headers, Content-Range, Retry-After and ETag', async () => {
    const reply = await api.call('/api/v1/stats', { key: api.key });
    const exposed = (reply.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-used', 'content-range', 'retry-after', 'etag']) {
      assert.ok(exposed.includes(header), exposed);
    }
    assert.equal(reply.headers.get('access-control-allow-origin'), '*');
  });

  test('API app - unknown API routes answer not_found in the error shape', async () => {
    for (const path of ['/api/v1/nope', '/api/v2/words', '/api/v1/words/1/extra', '/api', '/api/v1/languages/']) {
      const reply = await api.call(path, { key: api.key });
      assert.equal(reply.status, 404, `${path}: ${show(reply)}`);
      assert.equal(errorOf(reply).code, 'not_found');
      assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
    }
  });

  test('API app - an unknown page address gets the website 404 page, not JSON', async () => {
    const reply = await api.call('/no-such-page');
    assert.equal(reply.status, 404);
    assert.match(reply.headers.get('content-type') ?? '', /^text\/html/);
  });

  test('API app - two workers serve one port', async () => {
    for (let i = 0; i < 40; i++) {
      const reply = await api.call('/api/v1/openapi.json', { headers: { connection: 'close' } });
      assert.equal(reply.status, 200);
    }
    await sleep(100);
    const workers = new Set(
      logLines()
        .filter((l) => l.route === 'GET /api/v1/openapi.json')
        .map((l) => l.worker),
    );
    assert.equal(workers.size, 2, `requests were served by ${[...workers].join(', ')}`);
  });

  test('API app - one JSON log line per request: method, route pattern, status, duration, key prefix, never the key', async () => {
    await api.call('/api/v1/words/999999999', { key: api.key });
    await sleep(100);
    const line = logLines().find((l) => l.route === 'GET /api/v1/words/:id' && l.status === 404);
    assert.ok(line, api.stack.logs());
    assert.equal(line.method, 'GET');
    assert.equal(typeof line.ms, 'number');
    assert.equal(line.keyPrefix, api.key.slice(0, 17));
    assert.ok(!api.stack.logs().includes(api.key));
  });
});
