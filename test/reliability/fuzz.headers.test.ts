// Property-based authentication headers: X-API-Key and Authorization forms, duplicates, empty, very long and
// non-ASCII values, against a model of the spec's reading order (Authentication 3-6).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import fc from 'fast-check';

import { hostileText } from './support/arbitraries.ts';
import { fuzz, INSTITUTION_LIMIT, startTarget } from './support/fixture.ts';
import { OPERATIONS } from './support/invariants.ts';

import type { Case, Target } from './support/fixture.ts';
import type { Expectation } from './support/invariants.ts';

let target: Target;
let revoked: string;

before(async () => {
  target = await startTarget();
  const r = await target.stack.register();
  const result = await target.stack.ops('keys', 'revoke', r.keyPrefix);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  revoked = r.apiKey;
});
after(async () => {
  await target?.close();
});

type KeyKind = 'valid' | 'revoked' | 'unknown' | 'malformed' | 'empty';
interface KeyValue {
  kind: KeyKind;
  value: string;
  /** Surrounding whitespace or other forms whose reading the spec leaves open. */
  ambiguous: boolean;
}

/** Header values node can send: no control characters but tab. */
const sendable = (s: string) => s.replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, '');

const keyValue = (): fc.Arbitrary<KeyValue> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant<KeyValue>({ kind: 'valid', value: target.apiKey, ambiguous: false }) },
    { weight: 1, arbitrary: fc.constantFrom(' ', '\t', '  ').map((p): KeyValue => ({ kind: 'valid', value: `${p}${target.apiKey}${p}`, ambiguous: true })) },
    { weight: 1, arbitrary: fc.constant<KeyValue>({ kind: 'revoked', value: revoked, ambiguous: false }) },
    { weight: 1, arbitrary: fc.constant(0).map((): KeyValue => ({ kind: 'unknown', value: `svc_live_${randomBytes(20).toString('hex')}`, ambiguous: false })) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom(target.apiKey.toUpperCase(), `${target.apiKey}0`, target.apiKey.slice(0, -1), 'svc_live_',
            'svc_test_' + target.apiKey.slice(9), `${target.apiKey},${target.apiKey}`, 'null', 'undefined', '0',
            'svc_live_' + 'g'.repeat(40), 'x'.repeat(10_000), `svc_live_${'ọ'.repeat(40)}`, '😀', 'مرحبا'),
          hostileText.map(sendable),
        )
        .map((v) => v.trim())
        .filter((v) => v !== '' && v !== target.apiKey)
        .map((v): KeyValue => ({ kind: 'malformed', value: v, ambiguous: false })),
    },
    { weight: 1, arbitrary: fc.constantFrom('', ' ').map((v): KeyValue => ({ kind: 'empty', value: v, ambiguous: v !== '' })) },
  );

type AuthForm = 'bearer' | 'no-space' | 'lower' | 'upper' | 'double-space' | 'basic' | 'token' | 'bare';
const AUTH_FORMS: Record<AuthForm, (k: string) => string> = {
  bearer: (k) => `Bearer ${k}`,
  'no-space': (k) => `Bearer${k}`,
  lower: (k) => `bearer ${k}`,
  upper: (k) => `BEARER ${k}`,
  'double-space': (k) => `Bearer  ${k}`,
  basic: (k) => `Basic ${Buffer.from(`${k}:`).toString('base64')}`,
  token: (k) => `Token ${k}`,
  bare: (k) => k,
};

interface Auth {
  form: AuthForm;
  key: KeyValue;
}

const X_NAMES = ['X-API-Key', 'x-api-key', 'X-API-KEY', 'x-Api-kEy'];
const ROUTES = [
  ['stats', '/api/v1/stats'],
  ['languages', '/api/v1/languages'],
  ['words', '/api/v1/words?q=omi'],
  ['wotd', '/api/v1/word-of-the-day?language=yo'],
] as const;

/**
 * uWS trims bytes >= 0x80 at either end of a header value as if they were whitespace (so `X-API-Key: ọ`
 * arrives empty, and a valid key with a non-ASCII suffix arrives as the valid key): such values are outside
 * what the API can see, and their outcome is left open. Reported in docs/reliability.md.
 */
const edgeNonAscii = (v: string) => /^[^\x00-\x7f]|[^\x00-\x7f]$/.test(v);

/** What the spec says happens: the resolved key kind, or 'ambiguous'. */
function model(xKeys: KeyValue[], auths: Auth[]): KeyKind | 'none' | 'ambiguous' {
  if (xKeys.length > 1 || auths.length > 1) return 'ambiguous';
  const x = xKeys[0];
  if (x && (x.ambiguous || edgeNonAscii(x.value))) return 'ambiguous';
  if (x && x.kind !== 'empty') return x.kind;
  const a = auths[0];
  if (!a) return 'none';
  if (a.form === 'double-space' || a.key.ambiguous || edgeNonAscii(a.key.value)) return 'ambiguous';
  if (a.form !== 'bearer' || a.key.kind === 'empty') return 'none';
  return a.key.kind;
}

function expectation(kind: ReturnType<typeof model>, op: (typeof ROUTES)[number][0]): Expectation {
  const base = { target: OPERATIONS[op] };
  // A 404 is possible only on the word of the day, when the day has no word for the language.
  const ok = op === 'wotd' ? [200, 404] : [200];
  switch (kind) {
    case 'valid':
      return { ...base, resolvedLimit: INSTITUTION_LIMIT, anyOf: ok };
    case 'none':
      return { ...base, status: 401, code: 'missing_api_key' };
    case 'ambiguous':
      return { ...base, resolvedLimit: INSTITUTION_LIMIT, anyOf: [...ok, 401] };
    default:
      return { ...base, status: 401, code: 'invalid_api_key' };
  }
}

describe('authentication headers under hostile input', () => {
  test('fuzz - X-API-Key and Authorization forms resolve as the spec reads them', async () => {
    const auth = fc.record({ form: fc.constantFrom(...(Object.keys(AUTH_FORMS) as AuthForm[])), key: keyValue() });
    const extra = fc.array(
      fc.constantFrom<[string, string]>(
        ['Accept', 'application/xml'], ['Accept', '*/*'], ['Accept-Encoding', 'gzip, br'], ['If-None-Match', '"nope"'],
        ['X-Forwarded-For', '1.2.3.4, 5.6.7.8'], ['Cookie', 'a=b'], ['Content-Type', 'text/plain'], ['Origin', 'https://evil.example'],
        ['X-RateLimit-Limit', '1'], ['Authorization-Extra', 'x'], ['X-API-Key-Extra', 'x'],
      ),
      { maxLength: 3 },
    );
    const cases = fc
      .record({
        xKeys: fc.array(keyValue(), { maxLength: 2 }),
        xName: fc.constantFrom(...X_NAMES),
        auths: fc.array(auth, { maxLength: 2 }),
        route: fc.constantFrom(...ROUTES),
        extra,
        order: fc.boolean(),
      })
      .map(({ xKeys, xName, auths, route, extra: more, order }): Case => {
        const xs = xKeys.map((k) => [xName, k.value] as const);
        const as = auths.map((a) => ['Authorization', AUTH_FORMS[a.form](a.key.value)] as const);
        const headers = [...(order ? [...xs, ...as] : [...as, ...xs]), ...more];
        return {
          request: { method: 'GET', path: route[1], headers },
          expect: expectation(model(xKeys, auths), route[0]),
        };
      });
    await fuzz(target, cases, 2_400);
  });

  test('fuzz - sent at least the requests the issue asks of this file', (t) => {
    t.diagnostic(`sent ${target.sent} requests; ${target.cutOff} with a head over 4 KiB cut off by uWS without an answer`);
    if (target.failed > 0) return t.skip(`${target.failed} properties failed early; their failures are the finding`);
    assert.ok(target.sent >= 2_400, `sent ${target.sent}`);
  });
});
