// The key-creation throttle (5 per address per 15 minutes) cannot be dodged: not by X-Forwarded-For unless the
// peer is a TRUST_PROXY address, not by changing the email's case, not by a concurrent burst.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { startStack } from '../support/stack.ts';
import { httpClient } from './support/http.ts';

import type { Stack } from '../support/stack.ts';
import type { RawResponse } from './support/http.ts';

let untrusting: Stack;
let trusting: Stack;

before(async () => {
  [untrusting, trusting] = await Promise.all([
    startStack({ workers: 2, env: { TRUST_PROXY: '' } }),
    startStack({ workers: 2, env: { TRUST_PROXY: '127.0.0.1' } }),
  ]);
});
after(async () => {
  await Promise.all([untrusting?.stop(), trusting?.stop()]);
});

let sources = 10 + (process.pid % 200);
/** A loopback source address of its own for each test: the throttle is per peer address. */
const nextSource = () => `127.0.${++sources}.${(process.pid % 250) + 2}`;

let emails = 0;
const email = () => `throttle-${process.pid}-${++emails}@example.org`;

async function register(
  stack: Stack,
  source: string,
  options: { xff?: string; email?: string } = {},
): Promise<RawResponse> {
  const client = httpClient(stack.baseUrl, 1, source);
  try {
    const headers: [string, string][] = [['Content-Type', 'application/json']];
    if (options.xff) headers.push(['X-Forwarded-For', options.xff]);
    return await client.send({
      method: 'POST',
      path: '/api/v1/developers',
      headers,
      body: JSON.stringify({ name: 'Throttle Test', email: options.email ?? email() }),
    });
  } finally {
    client.close();
  }
}

function assertRateLimited(res: RawResponse): void {
  assert.equal(res.status, 429, res.text);
  assert.equal((JSON.parse(res.text) as { error: { code: string } }).error.code, 'rate_limited', res.text);
  assert.equal(res.headers['retry-after'], '900', JSON.stringify(res.headers));
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-used']) {
    assert.equal(res.headers[h], undefined, `no ${h} on POST /developers`);
  }
}

const statuses = (rs: RawResponse[]) => rs.map((r) => r.status);

describe('key-creation throttle', () => {
  test('X-Forwarded-For - ignored without TRUST_PROXY: a new forwarded address per request still gets the 6th refused', async () => {
    const source = nextSource();
    const results: RawResponse[] = [];
    for (let i = 0; i < 6; i++) results.push(await register(untrusting, source, { xff: `203.0.113.${i + 1}` }));
    assert.deepEqual(statuses(results.slice(0, 5)), [201, 201, 201, 201, 201], results.map((r) => r.text).join('\n'));
    assertRateLimited(results[5]);
    // Spoofing a trusted proxy's own address does not help either.
    assertRateLimited(await register(untrusting, source, { xff: '127.0.0.1' }));
  });

  test('X-Forwarded-For - from an address not in TRUST_PROXY, ignored even when the stack trusts 127.0.0.1', async () => {
    const source = nextSource();
    const results: RawResponse[] = [];
    for (let i = 0; i < 6; i++) results.push(await register(trusting, source, { xff: `198.51.100.${i + 1}` }));
    assert.deepEqual(statuses(results.slice(0, 5)), [201, 201, 201, 201, 201]);
    assertRateLimited(results[5]);
  });

  test('X-Forwarded-For - honoured from a TRUST_PROXY address: the client behind the proxy is throttled, others are not', async () => {
    const client = `192.0.2.${(process.pid % 200) + 1}`;
    const results: RawResponse[] = [];
    for (let i = 0; i < 6; i++) results.push(await register(trusting, '127.0.0.1', { xff: client }));
    assert.deepEqual(statuses(results.slice(0, 5)), [201, 201, 201, 201, 201]);
    assertRateLimited(results[5]);
    // A forged left-most entry does not change who the proxy says the client is (right-most untrusted hop).
    assertRateLimited(await register(trusting, '127.0.0.1', { xff: `10.9.9.9, ${client}` }));
    // Another client behind the same proxy is unaffected.
    assert.equal((await register(trusting, '127.0.0.1', { xff: '192.0.2.250' })).status, 201);
  });

  test('email case - the same address with changed case is one developer, and every request counts', async () => {
    const source = nextSource();
    const base = `case-${process.pid}-${Date.now()}@example.org`;
    const forms = [base, base.toUpperCase(), `Case${base.slice(4)}`, base.replace('example', 'EXAMPLE'), base.replace('case', 'CASE'), base];
    const results: RawResponse[] = [];
    for (const form of forms) results.push(await register(untrusting, source, { email: form }));
    assert.deepEqual(statuses(results.slice(0, 5)), [201, 201, 201, 201, 201], results.map((r) => r.text).join('\n'));
    assertRateLimited(results[5]);
    const developers = results.slice(0, 5).map((r) => JSON.parse(r.text) as { developer: { id: string; email: string }; apiKey: string });
    assert.equal(new Set(developers.map((d) => d.developer.id)).size, 1, 'one developer, not five');
    assert.deepEqual([...new Set(developers.map((d) => d.developer.email))], [base]);
    assert.equal(new Set(developers.map((d) => d.apiKey)).size, 5, 'an additional key each time');
  });

  for (const [name, pick] of [
    ['untrusted peer', () => ({ stack: untrusting, source: nextSource(), xff: undefined })],
    ['client behind a trusted proxy', () => ({ stack: trusting, source: '127.0.0.1', xff: `192.0.2.${(process.pid % 40) + 201}` })],
  ] as const) {
    test(`concurrent burst - 6 at once from one ${name}: exactly 5 × 201 and 1 × 429 rate_limited`, async () => {
      const { stack, source, xff } = pick();
      const results = await Promise.all(Array.from({ length: 6 }, () => register(stack, source, { xff })));
      const created = results.filter((r) => r.status === 201);
      const refused = results.filter((r) => r.status === 429);
      assert.equal(created.length, 5, results.map((r) => `${r.status} ${r.text}`).join('\n'));
      assert.equal(refused.length, 1);
      assertRateLimited(refused[0]);
    });
  }
});
