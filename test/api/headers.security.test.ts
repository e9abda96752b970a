// Response headers that protect browsers and caches, over the real stack: nosniff on every API response (framing
// 400s included), Vary: X-API-Key on every keyed 200 and 304, CORS on the keyed reads only, and a registration
// preflight that allows no other origin.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';

import { fakeClientIp } from '../support/stack.ts';
import { show, startApi } from './support.ts';

import type { Api, Reply } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 1 });
});
after(async () => {
  await api?.stack.stop();
});

const ELSEWHERE = 'https://elsewhere.example';

/** The status line and header block the worker answers to `request`, written as it is. */
async function rawHead(request: string): Promise<string> {
  const socket = net.connect(api.stack.port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(request);
  let text = '';
  for await (const chunk of socket) {
    text += (chunk as Buffer).toString('latin1');
    if (text.includes('\r\n\r\n')) break;
  }
  socket.destroy();
  return text.split('\r\n\r\n')[0];
}

describe('API response headers', () => {
  test('API response headers - every API response says nosniff', async () => {
    const search = await api.call('/api/v1/words?q=omo', { key: api.key });
    const id = (search.body as { data: { id: number }[] }).data[0]?.id;
    assert.ok(id !== undefined, show(search));
    // One coding for both: a compressed representation has an ETag of its own (docs/website.md).
    const identity = { 'accept-encoding': 'identity' };
    const entry = await api.call(`/api/v1/words/${id}`, { key: api.key, headers: identity });
    const replies: [string, Reply][] = [
      ['search 200', search],
      ['entry 200', entry],
      ['entry 304', await api.call(`/api/v1/words/${id}`, { key: api.key, headers: { ...identity, 'if-none-match': entry.headers.get('etag') ?? '' } })],
      ['languages 200', await api.call('/api/v1/languages', { key: api.key })],
      ['stats 200', await api.call('/api/v1/stats', { key: api.key })],
      ['word of the day 200', await api.call('/api/v1/word-of-the-day', { key: api.key })],
      ['missing key 401', await api.call('/api/v1/words?q=omo')],
      ['bad parameter 400', await api.call('/api/v1/words?limit=0', { key: api.key })],
      ['unknown entry 404', await api.call('/api/v1/words/no-such-entry-anywhere', { key: api.key })],
      ['unknown route 404', await api.call('/api/v1/nothing-here')],
      ['openapi 200', await api.call('/api/v1/openapi.json')],
      ['healthz 200', await api.call('/healthz')],
      [
        'registration 201',
        await api.call('/api/v1/developers', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': fakeClientIp() },
          body: JSON.stringify({ name: 'Headers', email: `headers-${process.pid}@example.org` }),
        }),
      ],
      ['registration 400', await api.call('/api/v1/developers', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })],
      ['preflight 204', await api.call('/api/v1/words', { method: 'OPTIONS', headers: { origin: ELSEWHERE } })],
    ];
    const missing = replies.filter(([, reply]) => reply.headers.get('x-content-type-options') !== 'nosniff');
    assert.deepEqual(missing.map(([what, reply]) => `${what}: ${show(reply)}`), []);
    assert.equal(replies.find(([what]) => what === 'entry 304')?.[1].status, 304);
  });

  test('API response headers - a request whose framing is refused gets nosniff on its 400, on every route', async () => {
    const conflicting = 'Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello';
    for (const line of ['POST /api/v1/developers', 'GET /api/v1/words?q=omo', 'GET /healthz']) {
      const head = await rawHead(`${line} HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${api.key}\r\n${conflicting}`);
      assert.match(head, /^HTTP\/1\.1 400/, `${line}: ${head}`);
      assert.match(head, /\r\nx-content-type-options: nosniff/i, `${line}: ${head}`);
    }
  });

  test('API response headers - every keyed 200 and 304 varies by X-API-Key, so that no shared cache serves one key\'s answer to another', async () => {
    const entry = await api.call('/api/v1/words?q=omo', { key: api.key });
    const etag = entry.headers.get('etag');
    const keyed: [string, Reply][] = [
      ['search 200', entry],
      ['languages 200', await api.call('/api/v1/languages', { key: api.key })],
      ['stats 200', await api.call('/api/v1/stats', { key: api.key })],
      ['word of the day 200', await api.call('/api/v1/word-of-the-day', { key: api.key })],
    ];
    const stats = keyed[2][1];
    keyed.push(['stats 304', await api.call('/api/v1/stats', { key: api.key, headers: { 'if-none-match': stats.headers.get('etag') ?? '' } })]);
    assert.equal(keyed[4][1].status, 304, show(keyed[4][1]));
    const missing = keyed.filter(([, reply]) => !/(^|,\s*)X-API-Key(\s*,|$)/i.test(reply.headers.get('vary') ?? ''));
    assert.deepEqual(missing.map(([what, reply]) => `${what}: ${show(reply)}`), [], String(etag));
  });

  test('API response headers - the keyed reads keep CORS for any origin, GET only', async () => {
    const preflight = await api.call('/api/v1/words', {
      method: 'OPTIONS',
      headers: { origin: ELSEWHERE, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    });
    assert.equal(preflight.status, 204, show(preflight));
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*', show(preflight));
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, OPTIONS', show(preflight));
    const read = await api.call('/api/v1/words?q=omo', { key: api.key, headers: { origin: ELSEWHERE } });
    assert.equal(read.headers.get('access-control-allow-origin'), '*', show(read));
  });

  test('API response headers - registration allows no other origin, with or without a preflight', async () => {
    const preflight = await api.call('/api/v1/developers', {
      method: 'OPTIONS',
      headers: { origin: ELSEWHERE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    assert.equal(preflight.headers.get('access-control-allow-origin'), null, show(preflight));
    assert.equal(preflight.headers.get('access-control-allow-methods'), null, show(preflight));
    const cases: [string, Record<string, string>][] = [
      ['Origin of another site', { origin: ELSEWHERE }],
      ['Origin null', { origin: 'null' }],
      ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site', origin: 'http://api.127.0.0.1.example' }],
    ];
    for (const [what, headers] of cases) {
      const reply = await api.call('/api/v1/developers', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': fakeClientIp(), ...headers },
        body: JSON.stringify({ name: 'Cross', email: `cross-${process.pid}@example.org` }),
      });
      assert.equal(reply.status, 400, `${what}: ${show(reply)}`);
      const error = (reply.body as { error: { code: string; message: string } }).error;
      assert.equal(error.code, 'invalid_parameter', `${what}: ${show(reply)}`);
      assert.match(error.message, /^Invalid parameter 'Origin': /, `${what}: ${show(reply)}`);
      assert.equal(reply.headers.get('access-control-allow-origin'), null, `${what}: ${show(reply)}`);
    }
    const own = await api.call('/api/v1/developers', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': fakeClientIp(),
        origin: api.stack.baseUrl,
        'sec-fetch-site': 'same-origin',
      },
      body: JSON.stringify({ name: 'Own', email: `own-${process.pid}@example.org` }),
    });
    assert.equal(own.status, 201, show(own));
    const shown = await api.stack.ops('developers', 'show', `cross-${process.pid}@example.org`);
    assert.equal(shown.code, 1, `no developer was created: ${shown.stdout}${shown.stderr}`);
  });
});
