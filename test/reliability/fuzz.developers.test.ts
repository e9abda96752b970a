// Property-based bodies for POST /api/v1/developers: wrong types, deep nesting, huge strings, invalid UTF-8,
// non-objects, malformed JSON and non-JSON content types. Each request comes from its own forwarded address
// (the stack trusts 127.0.0.1 as a proxy) so that the per-IP throttle does not hide the body handling.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import fc from 'fast-check';

import { hostileText } from './support/arbitraries.ts';
import { fuzz, startTarget } from './support/fixture.ts';

import type { Case, Target } from './support/fixture.ts';
import type { RawResponse } from './support/http.ts';

let target: Target;
before(async () => {
  target = await startTarget();
});
after(async () => {
  await target?.close();
});

let addresses = 0;
/** A fresh client address per request, outside the ranges the stack helper hands out. */
function freshAddress(): string {
  const n = ++addresses + ((process.pid & 0xff) << 16);
  return n % 3 === 0 ? `2001:db8::${((n >> 16) & 0xffff).toString(16)}:${(n & 0xffff).toString(16)}` : `172.${16 + ((n >> 16) & 15)}.${(n >> 8) & 255}.${n & 255}`;
}

let emails = 0;
const uniqueEmail = (c: boolean) => {
  const e = `fuzz-${process.pid}-${++emails}@Example.ORG`;
  return c ? e.toUpperCase() : e;
};

interface BodyCase {
  body: Buffer | string;
  contentType?: string;
  /** 201, 400, or either when the spec leaves the outcome open. */
  outcome: 201 | 400 | 'either';
  /** Parameter the 400 message must name. */
  names?: string;
  email?: string;
}

const json = (value: unknown) => JSON.stringify(value);
const WRONG_TYPES: unknown[] = [123, -1, 1.5, null, true, false, [], ['a'], {}, { a: 1 }, 1e308];
const deep = (n: number, open: string, close: string, inner = '1') => open.repeat(n) + inner + close.repeat(n);

const bodyCase: fc.Arbitrary<BodyCase> = fc.oneof(
  // Valid: 201.
  fc
    .record({
      name: fc.oneof(fc.constantFrom('Ada', 'Ngozi Okafor', 'Adébáyọ̀ Ọlá', 'Ụ'), fc.string({ minLength: 1, maxLength: 200 }).filter((s) => /^[A-Za-z][A-Za-z ]*$/.test(s))),
      upper: fc.boolean(),
      organization: fc.option(fc.oneof(fc.string({ maxLength: 300 }), fc.constant('o'.repeat(5000)))),
      useCase: fc.option(fc.oneof(fc.string({ maxLength: 600 }), fc.constant('u'.repeat(5000)))),
      keyName: fc.option(fc.string({ maxLength: 120 })),
      extra: fc.option(fc.dictionary(fc.constantFrom('plan', 'apiKey', 'id', 'role', 'isAdmin'), fc.jsonValue())),
    })
    .map(({ name, upper, organization, useCase, keyName, extra }) => {
      const email = uniqueEmail(upper);
      const body: Record<string, unknown> = { ...(extra ?? {}), name, email };
      if (organization !== null) body.organization = organization;
      if (useCase !== null) body.useCase = useCase;
      if (keyName !== null) body.keyName = keyName;
      return { body: json(body), outcome: 201 as const, email };
    }),
  // Wrong or missing name / email.
  fc.tuple(fc.constantFrom(...WRONG_TYPES, undefined), fc.constantFrom('name', 'email')).map(([bad, field]) => {
    const body: Record<string, unknown> = { name: 'Ada', email: uniqueEmail(false) };
    if (bad === undefined) delete body[field];
    else body[field] = bad;
    return { body: json(body), outcome: 400 as const, names: field };
  }),
  fc.constantFrom('plainaddress', '@example.org', 'a@', 'a@b', 'a b@c.org', 'a@@b.org', '', '   ').map((email) => ({
    body: json({ name: 'Ada', email }),
    outcome: 400 as const,
    names: 'email',
  })),
  fc.integer({ min: 201, max: 3000 }).map((n) => ({ body: json({ name: 'N'.repeat(n), email: uniqueEmail(false) }), outcome: 400 as const, names: 'name' })),
  fc.integer({ min: 201, max: 3000 }).map((n) => ({ body: json({ name: 'Ada', email: `${'e'.repeat(n)}@example.org` }), outcome: 400 as const, names: 'email' })),
  // Not an object, malformed, empty, too big, deeply nested.
  fc.constantFrom('[]', 'null', '0', '"x"', 'true', '[{"name":"Ada","email":"a@b.org"}]', '', ' ', '{', '{"name":', "{'name':'Ada'}",
    '{"name":"Ada","email":"a@b.org",}', '{"name":NaN}', '/* c */{}', '{"name":"Ada"}{"email":"a@b.org"}', '\u0000', '\uFEFF{}')
    .map((body) => ({ body, outcome: 400 as const })),
  fc.integer({ min: 16 * 1024 + 1, max: 200 * 1024 }).map((n) => ({
    body: json({ name: 'Ada', email: uniqueEmail(false), organization: 'o'.repeat(n) }),
    outcome: 400 as const,
  })),
  fc.integer({ min: 100, max: 7000 }).map((n) => ({ body: `{"name":${deep(n, '[', ']')},"email":"a@b.org"}`, outcome: 400 as const })),
  fc.integer({ min: 100, max: 5000 }).map((n) => ({ body: deep(n, '{"a":', '}'), outcome: 400 as const })),
  // Invalid UTF-8 inside a string, hostile names, other content types, duplicate keys: the spec leaves these open.
  fc.constantFrom([0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe0, 0xa4], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]).map((bytes) => ({
    body: Buffer.concat([Buffer.from('{"name":"A'), Buffer.from(bytes), Buffer.from(`da","email":"${uniqueEmail(false)}"}`)]),
    outcome: 'either' as const,
  })),
  hostileText.map((name) => ({ body: json({ name, email: uniqueEmail(false) }), outcome: 'either' as const })),
  fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1',
    'APPLICATION/JSON', 'application/vnd.api+json', '', 'ọ/ọ').map((contentType) => ({
    body: json({ name: 'Ada', email: uniqueEmail(false) }),
    contentType,
    outcome: 'either' as const,
  })),
  fc.constant(0).map(() => ({ body: `{"name":1,"name":"Ada","email":"${uniqueEmail(false)}"}`, outcome: 'either' as const })),
  fc.constant(0).map(() => ({ body: `{"__proto__":{"name":"Ada","email":"${uniqueEmail(false)}"}}`, outcome: 400 as const, names: 'name' })),
);

function toCase(b: BodyCase): Case {
  const headers: [string, string][] = [['X-Forwarded-For', freshAddress()]];
  if (b.contentType !== '') headers.push(['Content-Type', b.contentType ?? 'application/json']);
  return {
    request: { method: 'POST', path: '/api/v1/developers', headers, body: b.body },
    expect: {
      target: { kind: 'developers' },
      ...(b.outcome === 'either' ? { anyOf: [201, 400] } : { status: b.outcome }),
      ...(b.outcome === 400 ? { code: 'invalid_parameter' } : {}),
    },
    verify: (res) => verifyBody(b, res),
  };
}

/** The spec's 201 body (and the OpenAPI document's plain object), or a 400 naming the field. */
function verifyBody(b: BodyCase, res: RawResponse): void {
  const body = JSON.parse(res.text) as Record<string, unknown>;
  if (res.status === 201) {
    const problem = target.schema('post', '/api/v1/developers', 201, body);
    assert.equal(problem, undefined, problem);
    const dev = body.developer as Record<string, unknown>;
    assert.match(String(body.apiKey), /^svc_live_[0-9a-f]{40}$/, 'apiKey format');
    assert.equal(body.keyPrefix, String(body.apiKey).slice(0, 17), 'keyPrefix is the first 17 characters');
    assert.equal(dev.plan, 'free', 'always the free plan');
    assert.equal(typeof dev.id, 'string');
    assert.equal(typeof body.warning, 'string');
    assert.equal(typeof body.usage, 'string');
    if (b.email) assert.equal(dev.email, b.email.toLowerCase(), 'email lower-cased');
  } else if (b.names) {
    assert.match((body.error as { message: string }).message, new RegExp(b.names), `400 names ${b.names}`);
  }
}

describe('POST /api/v1/developers under hostile bodies', () => {
  test('fuzz - bodies: 201 with the spec body, or invalid_parameter naming the field; never more', async () => {
    await fuzz(target, bodyCase.map(toCase), 1_200);
  });

  test('fuzz - sent at least the requests the issue asks of this file', (t) => {
    t.diagnostic(`sent ${target.sent} requests; ${target.cutOff} with a head over 4 KiB cut off by uWS without an answer`);
    if (target.failed > 0) return t.skip(`${target.failed} properties failed early; their failures are the finding`);
    assert.ok(target.sent >= 1_200, `sent ${target.sent}`);
  });
});
