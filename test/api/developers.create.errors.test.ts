// POST /api/v1/developers: missing, malformed, non-object, oversized and mistyped bodies and bad fields are
// invalid_parameter naming the parameter.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { fakeClientIp } from '../support/stack.ts';
import { errorOf, RATE_HEADERS, show, startApi } from './support.ts';

import type { Api } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 1 });
});
after(async () => {
  await api?.stack.stop();
});

const JSON_TYPE = 'application/json';
const valid = () => ({ name: 'Bisi', email: `bisi-${Date.now()}-${Math.random()}@example.org` });
const padded = (bytes: number): string => {
  const base = JSON.stringify({ ...valid(), useCase: '' });
  return base.replace('"useCase":""', `"useCase":"${'x'.repeat(bytes - base.length)}"`);
};

const CASES: Array<{ name: string; body?: string; type?: string; parameter: string }> = [
  { name: 'no body', parameter: 'body' },
  { name: 'empty body', body: '', parameter: 'body' },
  { name: 'whitespace body', body: '   ', parameter: 'body' },
  { name: 'malformed JSON', body: '{"name": "a",', parameter: 'body' },
  { name: 'trailing garbage', body: '{"name":"a"} x', parameter: 'body' },
  { name: 'a JSON array', body: '[]', parameter: 'body' },
  { name: 'a JSON string', body: '"hello"', parameter: 'body' },
  { name: 'JSON null', body: 'null', parameter: 'body' },
  { name: 'a number', body: '42', parameter: 'body' },
  { name: 'text/plain', body: JSON.stringify(valid()), type: 'text/plain', parameter: 'body' },
  { name: 'form encoded', body: 'name=a&email=b%40c.de', type: 'application/x-www-form-urlencoded', parameter: 'body' },
  { name: 'over 16 KiB', body: padded(16 * 1024 + 1), parameter: 'body' },
  { name: 'far over 16 KiB', body: padded(200 * 1024), parameter: 'body' },
  { name: 'missing name', body: JSON.stringify({ email: 'a@b.co' }), parameter: 'name' },
  { name: 'empty name', body: JSON.stringify({ name: '  ', email: 'a@b.co' }), parameter: 'name' },
  { name: 'numeric name', body: JSON.stringify({ name: 5, email: 'a@b.co' }), parameter: 'name' },
  { name: 'name over 200', body: JSON.stringify({ name: 'n'.repeat(201), email: 'a@b.co' }), parameter: 'name' },
  { name: 'missing email', body: JSON.stringify({ name: 'a' }), parameter: 'email' },
  { name: 'email without @', body: JSON.stringify({ name: 'a', email: 'nobody' }), parameter: 'email' },
  { name: 'email with spaces', body: JSON.stringify({ name: 'a', email: 'a b@c.de' }), parameter: 'email' },
  { name: 'email over 200', body: JSON.stringify({ name: 'a', email: `${'e'.repeat(195)}@b.com` }), parameter: 'email' },
];

describe('POST /api/v1/developers errors', () => {
  for (const c of CASES) {
    test(`POST /api/v1/developers - ${c.name} is invalid_parameter naming ${c.parameter}`, async () => {
      const headers: Record<string, string> = { 'x-forwarded-for': fakeClientIp() };
      if (c.body !== undefined || c.type) headers['content-type'] = c.type ?? JSON_TYPE;
      const reply = await api.call('/api/v1/developers', { method: 'POST', headers, body: c.body });
      assert.equal(reply.status, 400, show(reply));
      const error = errorOf(reply);
      assert.equal(error.code, 'invalid_parameter', show(reply));
      assert.ok(error.message.includes(`'${c.parameter}'`), show(reply));
      for (const name of RATE_HEADERS) assert.equal(reply.headers.get(name), null);
    });
  }

  test('POST /api/v1/developers - a body of exactly 16 KiB is read', async () => {
    const reply = await api.call('/api/v1/developers', {
      method: 'POST',
      headers: { 'content-type': JSON_TYPE, 'x-forwarded-for': fakeClientIp() },
      body: padded(16 * 1024),
    });
    assert.equal(reply.status, 201, show(reply));
  });

  test('POST /api/v1/developers - GET is not_found; methods no resource answers are not_implemented', async () => {
    const get = await api.call('/api/v1/developers', { method: 'GET' });
    assert.equal(get.status, 404, show(get));
    assert.equal(errorOf(get).code, 'not_found');
    for (const method of ['PUT', 'DELETE']) {
      const reply = await api.call('/api/v1/developers', { method });
      assert.equal(reply.status, 501, show(reply));
      assert.equal(errorOf(reply).code, 'not_implemented');
    }
  });
});
