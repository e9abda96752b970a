// One request to the service: sends it, reads the JSON answer and the rate-limit headers, turns a failure into
// DictionaryApiError, and waits on 429 as the contract says (when the caller wants waiting) before retrying.
import { DictionaryApiError } from './errors.ts';
import { waitAfter429 } from './wait.ts';

import type { ApiResult, ErrorBody, RateLimit } from './types.ts';
import type { WaitableCode } from './wait.ts';

/** One wait before a retry, as `onWait` sees it. */
export interface WaitInfo {
  code: WaitableCode;
  /** How long the client is about to wait. */
  waitMs: number;
  /** 1 for the first wait of this request. */
  attempt: number;
  error: DictionaryApiError;
}

export interface WaitPolicy {
  /** `wait` sleeps and retries; `throw` raises the 429 as DictionaryApiError at once. */
  on429: 'wait' | 'throw';
  /** Waits per request before the 429 is raised. */
  maxWaits: number;
  /** A wait longer than this (ms) is not made: the 429 is raised instead. */
  maxWaitMs: number;
  onWait?: (wait: WaitInfo) => void;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
}

export interface Transport {
  fetch: typeof fetch;
  policy: WaitPolicy;
}

export interface Call {
  url: string;
  init: RequestInit;
  signal?: AbortSignal;
}

function rateLimitOf(headers: Headers): RateLimit | null {
  const limit = headers.get('x-ratelimit-limit');
  const remaining = headers.get('x-ratelimit-remaining');
  const used = headers.get('x-ratelimit-used');
  if (limit === null || remaining === null || used === null) return null;
  return { limit: Number(limit), remaining: Number(remaining), used: Number(used) };
}

function isErrorBody(value: unknown): value is ErrorBody {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}

function errorOf(res: Response, parsed: unknown, rateLimit: RateLimit | null): DictionaryApiError {
  const retryAfter = res.headers.get('retry-after');
  const retryAfterSeconds = retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
  if (!isErrorBody(parsed)) {
    return new DictionaryApiError({
      code: 'unexpected_response',
      message: `The service answered ${res.status} without its error body.`,
      status: res.status,
      retryAfterSeconds,
      rateLimit,
    });
  }
  const { code, message, details } = parsed.error;
  return new DictionaryApiError({ code, message, status: res.status, details, retryAfterSeconds, rateLimit });
}

async function send(transport: Transport, call: Call): Promise<Response> {
  try {
    return await transport.fetch(call.url, { ...call.init, signal: call.signal });
  } catch (cause) {
    if (call.signal?.aborted) throw cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new DictionaryApiError({ code: 'network_error', message: `No answer from ${call.url}: ${reason}`, status: 0, cause });
  }
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Sends `call`, retrying after the waits the policy allows; resolves with a 2xx answer, else throws. */
export async function request<T>(transport: Transport, call: Call): Promise<ApiResult<T>> {
  const { policy } = transport;
  for (let attempt = 1; ; attempt++) {
    const res = await send(transport, call);
    const parsed = await readJson(res);
    const rateLimit = rateLimitOf(res.headers);
    if (res.ok && parsed !== undefined) return { body: parsed as T, status: res.status, headers: res.headers, rateLimit };
    if (res.ok) {
      throw new DictionaryApiError({ code: 'unexpected_response', message: `The service answered ${res.status} without JSON.`, status: res.status, rateLimit });
    }
    const error = errorOf(res, parsed, rateLimit);
    if (res.status !== 429 || policy.on429 === 'throw' || attempt > policy.maxWaits) throw error;
    if (error.code !== 'quota_exceeded' && error.code !== 'rate_limited') throw error;
    const waitMs = waitAfter429(error.code, res.headers.get('retry-after'), policy.now());
    if (waitMs > policy.maxWaitMs) throw error;
    policy.onWait?.({ code: error.code, waitMs, attempt, error });
    await policy.sleep(waitMs, call.signal);
  }
}

/** setTimeout's longest delay (2^31 - 1 ms, about 24.8 days); a longer wait is made of several. */
const MAX_TIMER_MS = 2_147_483_647;

/** setTimeout as a promise that an AbortSignal cancels (the default sleep; tests inject their own). */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  for (let left = ms; left > 0; left -= MAX_TIMER_MS) await sleepOnce(Math.min(left, MAX_TIMER_MS), signal);
  signal?.throwIfAborted();
}

function sleepOnce(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const abort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}
