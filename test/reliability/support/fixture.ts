// One fuzzing target per test file: the full stack (nats, metering, two API workers), an institution key so
// that thousands of requests stay far below the quota, real ids and slugs, and the served OpenAPI document.
import fc from 'fast-check';

import { loadOpenApiValidator } from '../../support/openapi-validate.ts';
import { startStack } from '../../support/stack.ts';
import { httpClient, pool } from './http.ts';
import { describe as describeExchange, violations } from './invariants.ts';

import type { Stack } from '../../support/stack.ts';
import type { HttpClient, RawRequest, RawResponse } from './http.ts';
import type { Expectation, SchemaCheck } from './invariants.ts';

export const INSTITUTION_LIMIT = 500_000;
/** Requests in flight at once: modest, so that 2 cores finish quickly without queueing. */
export const CONCURRENCY = 8;

export interface Case {
  request: RawRequest;
  expect: Expectation;
  /** Checks beyond the shared invariants; throws (any Error) when the response is wrong. */
  verify?: (res: RawResponse) => void;
}

export interface Target {
  stack: Stack;
  client: HttpClient;
  apiKey: string;
  /** Real entry ids and slugs from the snapshot. */
  realIds: string[];
  schema: SchemaCheck;
  /** Requests sent so far by fuzz(). */
  sent: number;
  /** Of those, requests with a head over UWS_MAX_HEAD_BYTES that uWS cut off without an answer. */
  cutOff: number;
  /** Properties that failed (the request count is then short, and not the finding). */
  failed: number;
  close(): Promise<void>;
}

/** A concrete path of each documented operation, for the validator's path matching. */
const CONCRETE: Record<string, string> = {
  '/api/v1/words/{id}': '/api/v1/words/1',
};

export async function startTarget(options: { env?: NodeJS.ProcessEnv } = {}): Promise<Target> {
  const stack = await startStack(options);
  try {
    const { apiKey } = await stack.keyOnPlan('institution');
    const validator = await loadOpenApiValidator(stack.baseUrl);
    const client = httpClient(stack.baseUrl, CONCURRENCY);
    const page = await client.send({ method: 'GET', path: '/api/v1/words?limit=50&language=yo', headers: [['X-API-Key', apiKey]] });
    const ig = await client.send({ method: 'GET', path: '/api/v1/words?limit=50&language=ig', headers: [['X-API-Key', apiKey]] });
    const realIds: string[] = [];
    for (const res of [page, ig]) {
      if (res.status !== 200) throw new Error(`browsing failed: ${res.status} ${res.text}`);
      for (const w of (JSON.parse(res.text) as { data: { id: number; slug: string }[] }).data) {
        realIds.push(String(w.id), w.slug);
      }
    }
    const schema: SchemaCheck = (method, operation, status, body) => {
      try {
        validator.check(method, CONCRETE[operation] ?? operation, status, body);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    };
    return {
      stack,
      client,
      apiKey,
      realIds,
      schema,
      sent: 0,
      cutOff: 0,
      failed: 0,
      async close() {
        client.close();
        await stack.stop();
      },
    };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

export class InvariantError extends Error {
  override readonly name = 'InvariantError';
}

/**
 * uWS buffers at most this much of a request head that arrives in more than one read (its
 * UWS_HTTP_MAX_HEADERS_SIZE default); a longer head is cut off without an HTTP answer. Over loopback a long
 * head usually arrives in one read and is answered, so both outcomes occur: see docs/reliability.md.
 */
export const UWS_MAX_HEAD_BYTES = 4096;

/** Bytes of the request line and headers as sent. */
export function headBytes(request: RawRequest): number {
  const line = Buffer.byteLength(`${request.method} ${request.path} HTTP/1.1\r\nHost: 127.0.0.1:65535\r\n`);
  return line + (request.headers ?? []).reduce((n, [k, v]) => n + Buffer.byteLength(`${k}: ${v}\r\n`), 2);
}

/** Sends one case and throws an InvariantError naming every broken invariant with the whole exchange. */
export async function check(target: Target, c: Case): Promise<RawResponse | undefined> {
  let res: RawResponse;
  try {
    res = await target.client.send(c.request);
  } catch (error) {
    // uWS closes the socket on an over-long head; a client still writing the head then sees EPIPE instead.
    const cut = /ECONNRESET|EPIPE|socket hang up/.test((error as Error).message);
    if (cut && headBytes(c.request) > UWS_MAX_HEAD_BYTES) {
      target.cutOff++;
      return undefined;
    }
    throw new InvariantError(`no HTTP response (${(error as Error).message}) to ${c.request.method} ${c.request.path.slice(0, 300)}`);
  } finally {
    target.sent++;
  }
  const broken = violations(c.request, res, c.expect, target.schema);
  if (!broken.length && c.verify) {
    try {
      c.verify(res);
    } catch (error) {
      broken.push((error as Error).message.split('\n')[0]);
    }
  }
  if (broken.length) throw new InvariantError(`${broken.join('; ')}\n${describeExchange(c.request, res)}`);
  return res;
}

/**
 * Property: every generated case satisfies the invariants. Cases go out in batches of CONCURRENCY over
 * keep-alive connections; fast-check shrinks a failing batch to a minimal case.
 */
export async function fuzz(target: Target, cases: fc.Arbitrary<Case>, requests: number): Promise<void> {
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
  if (process.env.FUZZ_COLLECT) return collect(target, cases, requests, seed);
  const details = await fc.check(
    fc.asyncProperty(fc.array(cases, { minLength: CONCURRENCY, maxLength: CONCURRENCY }), async (batch) => {
      await pool(batch, CONCURRENCY, (c) => check(target, c));
    }),
    { numRuns: Math.ceil(requests / CONCURRENCY), seed },
  );
  if (details.failed) {
    target.failed++;
    // fast-check's own report prints the whole counterexample (up to megabytes of URL): show the cause only.
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new InvariantError(
      `property failed after ${details.numRuns} runs (seed ${details.seed}, path ${details.counterexamplePath}; ` +
        `rerun with FUZZ_SEED=${details.seed}), shrunk ${details.numShrinks} times:\n${cause.slice(0, 6_000)}`,
    );
  }
}

/**
 * Triage mode (FUZZ_COLLECT=1): sends every generated case without stopping at the first failure and fails
 * once with one example per distinct broken invariant, so that one bug does not hide the next.
 */
async function collect(target: Target, cases: fc.Arbitrary<Case>, requests: number, seed: number | undefined): Promise<void> {
  const sample = fc.sample(cases, { numRuns: requests, seed });
  const found = new Map<string, string>();
  await pool(sample, CONCURRENCY, async (c) => {
    try {
      await check(target, c);
    } catch (error) {
      const message = (error as Error).message;
      const kind = message.split('\n')[0].replace(/\d+/g, 'N');
      if (!found.has(kind)) found.set(kind, message);
    }
  });
  if (found.size) target.failed++;
  if (found.size) throw new InvariantError([...found.values()].map((m) => m.slice(0, 1_500)).join('\n\n'));
}
