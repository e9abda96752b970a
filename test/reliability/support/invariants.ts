// The invariants every response must satisfy, whatever was sent: no 5xx, the spec's error shape with a
// documented code and its status, 2xx bodies valid against the served OpenAPI description, nothing leaked,
// and rate-limit headers exactly where the spec puts them.
import path from 'node:path';

import { ERROR_STATUS } from '../../../services/shared/errors.ts';

import type { RawRequest, RawResponse } from './http.ts';

/** Which operation a generated request targets (decided by the generator, not by parsing the path). */
export type Target =
  | { kind: 'metered'; operation: string; endpoint: string }
  | { kind: 'developers' }
  | { kind: 'other' };

export const OPERATIONS = {
  words: { kind: 'metered', operation: '/api/v1/words', endpoint: 'GET /api/v1/words' },
  entry: { kind: 'metered', operation: '/api/v1/words/{id}', endpoint: 'GET /api/v1/words/{id}' },
  wotd: { kind: 'metered', operation: '/api/v1/word-of-the-day', endpoint: 'GET /api/v1/word-of-the-day' },
  languages: { kind: 'metered', operation: '/api/v1/languages', endpoint: 'GET /api/v1/languages' },
  stats: { kind: 'metered', operation: '/api/v1/stats', endpoint: 'GET /api/v1/stats' },
} as const satisfies Record<string, Target>;

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Stack traces, source paths and SQL/engine text: none may reach a client. */
const LEAKS: readonly [string, RegExp][] = [
  // In a JSON body a newline is the two characters backslash and n.
  ['stack trace', /(?:\n|\\n)\s*at [^\n"]*:\d+:\d+/],
  ['file path of the repository', new RegExp(ROOT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))],
  ['node_modules path', /node_modules/],
  ['TypeScript source position', /\.ts:\d/],
  ['SQLite text', /SQLITE/i],
  ['FTS text', /\bFTS\d?\b/],
  ['SQL syntax error', /syntax error/i],
  ['error class name', /\b(?:TypeError|RangeError|ReferenceError|SyntaxError|SqliteError)\b/],
];

const DOCUMENTED_CODES = new Set(Object.keys(ERROR_STATUS).filter((c) => c !== 'revoked_api_key'));
const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-used'] as const;

/** Validates a 2xx body against the served OpenAPI document; returns error text or undefined. */
export type SchemaCheck = (method: string, operation: string, status: number, body: unknown) => string | undefined;

export interface Expectation {
  target: Target;
  /** The key sent resolves to a usable key with this daily limit (for rate-limit header checks). */
  resolvedLimit?: number;
  /** When the outcome is fully determined: the exact status (and code for errors). */
  status?: number;
  code?: string;
  /** Statuses any of which is acceptable when the outcome is ambiguous by the spec. */
  anyOf?: readonly number[];
}

export function describe(req: RawRequest, res: RawResponse): string {
  const body = typeof req.body === 'string' ? req.body : req.body ? `<${req.body.length} bytes>` : '';
  const shown = (s: string) => (s.length > 600 ? `${s.slice(0, 600)}…(${s.length} chars)` : s);
  return (
    `request: ${req.method} ${shown(req.path)}\n  headers: ${shown(JSON.stringify(req.headers ?? []))}\n` +
    `  body: ${shown(JSON.stringify(body))}\nresponse: ${res.status} ${JSON.stringify(res.headers)}\n  ${shown(res.text)}`
  );
}

/** Returns the list of violated invariants (empty when the response is fine). */
export function violations(req: RawRequest, res: RawResponse, expect: Expectation, schema: SchemaCheck): string[] {
  const out: string[] = [];
  // 501 is the answer to a method no resource answers (RFC 9110 §15.6.2), not a failure of the server.
  const notImplemented = res.status === 501 && /"code":"not_implemented"/.test(res.text);
  if (res.status >= 500 && !notImplemented) out.push(`5xx status ${res.status}`);
  for (const [what, pattern] of LEAKS) if (pattern.test(res.text)) out.push(`body leaks ${what}`);

  let body: unknown;
  if (res.status !== 304 && req.method !== 'HEAD') {
    if (!String(res.headers['content-type'] ?? '').startsWith('application/json')) {
      out.push(`content-type is ${res.headers['content-type']}, not JSON`);
    }
    try {
      body = JSON.parse(res.text);
    } catch {
      out.push('body is not JSON');
    }
  }

  if (res.status >= 400 && body !== undefined) out.push(...errorShape(res.status, body));
  if (res.status >= 200 && res.status < 300 && body !== undefined && expect.target.kind === 'metered') {
    const problem = schema('get', expect.target.operation, res.status, body);
    if (problem) out.push(`2xx body does not match the OpenAPI schema: ${problem}`);
  }

  if (expect.status !== undefined && res.status !== expect.status) out.push(`expected status ${expect.status}`);
  if (expect.anyOf && !expect.anyOf.includes(res.status)) out.push(`expected one of ${expect.anyOf.join(', ')}`);
  if (expect.code !== undefined && errorCode(body) !== expect.code) out.push(`expected error code ${expect.code}`);

  out.push(...rateHeaders(res, expect, body));
  return out;
}

function errorCode(body: unknown): string | undefined {
  const error = (body as { error?: { code?: unknown } } | undefined)?.error;
  return typeof error?.code === 'string' ? error.code : undefined;
}

function errorShape(status: number, body: unknown): string[] {
  const out: string[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return ['error body is not an object'];
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== 'error') out.push(`error body has keys ${keys.join(',')}`);
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return [...out, 'error is not an object'];
  const { code, message, details, ...rest } = error as Record<string, unknown>;
  if (Object.keys(rest).length) out.push(`error has extra fields ${Object.keys(rest).join(',')}`);
  if (typeof code !== 'string' || !DOCUMENTED_CODES.has(code)) out.push(`undocumented code ${String(code)}`);
  else if (ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== status) out.push(`code ${code} with status ${status}`);
  if (typeof message !== 'string' || message.length === 0) out.push('message is not a non-empty string');
  if (code === 'quota_exceeded') {
    const d = details as Record<string, unknown> | undefined;
    if (!d || typeof d.plan !== 'string' || typeof d.endpoint !== 'string' || !Number.isInteger(d.used) ||
      !Number.isInteger(d.limit)) {
      out.push('quota_exceeded without details {plan, endpoint, used, limit}');
    }
  } else if (details !== undefined) out.push(`details on ${String(code)}`);
  return out;
}

/** Spec: none on 401s and POST /developers; all three on metered responses once the key resolved. */
function rateHeaders(res: RawResponse, expect: Expectation, body: unknown): string[] {
  const present = RATE_HEADERS.filter((h) => res.headers[h] !== undefined);
  const code = errorCode(body);
  if (expect.target.kind === 'developers' && present.length) return ['rate-limit headers on POST /developers'];
  if (res.status === 401 && present.length) return ['rate-limit headers on a 401'];
  const resolved =
    expect.target.kind === 'metered' && res.status !== 401 && res.status !== 500 && expect.resolvedLimit !== undefined;
  if (!resolved) return [];
  if (present.length !== 3) return [`metered ${res.status} ${code ?? ''} lacks rate-limit headers`];
  const [limit, remaining, used] = RATE_HEADERS.map((h) => Number(res.headers[h]));
  const out: string[] = [];
  if (limit !== expect.resolvedLimit) out.push(`X-RateLimit-Limit ${limit}, expected ${expect.resolvedLimit}`);
  if (!Number.isInteger(used) || used < 1 || used > limit) out.push(`X-RateLimit-Used ${used} out of range`);
  if (!Number.isInteger(remaining) || remaining < 0 || remaining > limit) out.push(`X-RateLimit-Remaining ${remaining}`);
  return out;
}
