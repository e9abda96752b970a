// DictionaryClient: every operation of the API over fetch (Node 20+ and browsers), the key sent as X-API-Key,
// search paged to its end, and 429s waited on as the contract says unless the caller prefers an error.
import { request, sleep } from './request.ts';

import type { Call, Transport, WaitInfo } from './request.ts';
import type {
  ApiResult,
  Entry,
  Languages,
  OpenApiDocument,
  Registration,
  RegistrationRequest,
  SearchWordsQuery,
  Stats,
  WordOfTheDay,
  WordOfTheDayQuery,
  WordsPage,
  WordSummary,
} from './types.ts';

/** Waits per request before a 429 is raised, by default. */
export const DEFAULT_MAX_WAITS = 3;
/** Results per page when paging a whole result set: the route's maximum, so the fewest requests count against the quota. */
export const PAGING_LIMIT = 100;

export interface ClientOptions {
  /** Where the service answers, e.g. `https://dictionary.example.org` (the client appends `/api/v1/...`). */
  baseUrl: string;
  /** Sent as X-API-Key on the metered operations. */
  apiKey?: string;
  /**
   * On 429: `wait` (default) waits as the contract says (quota_exceeded until 00:00 UTC, rate_limited 900 s;
   * Retry-After when sent) and retries; `throw` raises DictionaryApiError at once.
   */
  on429?: 'wait' | 'throw';
  /** Waits per request before the 429 is raised (default 3). */
  maxWaits?: number;
  /** A wait longer than this many milliseconds is not made: the 429 is raised instead (default: no bound). */
  maxWaitMs?: number;
  /** Told of each wait before it starts (to log it, or to show it). */
  onWait?: (wait: WaitInfo) => void;
  /** How to wait (default: setTimeout, cancelled by the request's signal). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The clock, in epoch milliseconds (default Date.now). */
  now?: () => number;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Headers sent with every request (e.g. a User-Agent). */
  headers?: Record<string, string>;
}

/** Per call: a signal that cancels the request and any wait on 429. */
export interface CallOptions {
  signal?: AbortSignal;
}

export class DictionaryClient {
  readonly #options: ClientOptions;
  readonly #transport: Transport;
  readonly #base: string;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#transport = {
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      policy: {
        on429: options.on429 ?? 'wait',
        maxWaits: options.maxWaits ?? DEFAULT_MAX_WAITS,
        maxWaitMs: options.maxWaitMs ?? Number.POSITIVE_INFINITY,
        onWait: options.onWait,
        sleep: options.sleep ?? sleep,
        now: options.now ?? Date.now,
      },
    };
  }

  /** The same client with another key (e.g. the one registration returned). */
  withApiKey(apiKey: string): DictionaryClient {
    return new DictionaryClient({ ...this.#options, apiKey });
  }

  /** GET /api/v1/words: one page of results. */
  searchWords(query: SearchWordsQuery = {}, options: CallOptions = {}): Promise<ApiResult<WordsPage>> {
    return this.#get('/api/v1/words', query, options);
  }

  /**
   * Every page of one result set, from `query.page` (default 1) until `hasMore` is false, with the same q and
   * filters throughout (spec). Without `query.limit`, pages of 100. Each page is one request against the quota.
   */
  async *searchPages(query: SearchWordsQuery = {}, options: CallOptions = {}): AsyncGenerator<ApiResult<WordsPage>> {
    const limit = query.limit ?? PAGING_LIMIT;
    for (let page = query.page ?? 1; ; page++) {
      const result = await this.searchWords({ ...query, page, limit }, options);
      yield result;
      if (!result.body.hasMore) return;
    }
  }

  /** Every word of one result set, paging as searchPages does. */
  async *searchAll(query: SearchWordsQuery = {}, options: CallOptions = {}): AsyncGenerator<WordSummary> {
    for await (const page of this.searchPages(query, options)) yield* page.body.data;
  }

  /** GET /api/v1/words/{id}: one entry in full, by its id or its slug. */
  getWord(idOrSlug: number | string, options: CallOptions = {}): Promise<ApiResult<Entry>> {
    return this.#get(`/api/v1/words/${encodeURIComponent(String(idOrSlug))}`, {}, options);
  }

  /** GET /api/v1/word-of-the-day, optionally for one language and one UTC day (YYYY-MM-DD). */
  wordOfTheDay(query: WordOfTheDayQuery = {}, options: CallOptions = {}): Promise<ApiResult<WordOfTheDay>> {
    return this.#get('/api/v1/word-of-the-day', query, options);
  }

  /** GET /api/v1/languages: every language with its word count. */
  languages(options: CallOptions = {}): Promise<ApiResult<Languages>> {
    return this.#get('/api/v1/languages', {}, options);
  }

  /** GET /api/v1/stats: the totals. */
  stats(options: CallOptions = {}): Promise<ApiResult<Stats>> {
    return this.#get('/api/v1/stats', {}, options);
  }

  /** GET /api/v1/openapi.json: the OpenAPI 3.1.0 description as served (no key needed). */
  openapi(options: CallOptions = {}): Promise<ApiResult<OpenApiDocument>> {
    return this.#send({ url: `${this.#base}/api/v1/openapi.json`, init: { headers: this.#headers(false) } }, options);
  }

  /**
   * POST /api/v1/developers: registers a developer (idempotent on email) and issues a free-plan key, returned
   * this once only. No key needed; throttled per address (429 rate_limited, Retry-After 900).
   */
  register(body: RegistrationRequest, options: CallOptions = {}): Promise<ApiResult<Registration>> {
    const headers = { ...this.#headers(false), 'content-type': 'application/json' };
    return this.#send({ url: `${this.#base}/api/v1/developers`, init: { method: 'POST', headers, body: JSON.stringify(body) } }, options);
  }

  #get<T>(path: string, query: Record<string, string | number | undefined>, options: CallOptions): Promise<ApiResult<T>> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
    const qs = search.toString();
    return this.#send({ url: `${this.#base}${path}${qs === '' ? '' : `?${qs}`}`, init: { headers: this.#headers(true) } }, options);
  }

  #send<T>(call: Call, options: CallOptions): Promise<ApiResult<T>> {
    return request<T>(this.#transport, { ...call, signal: options.signal });
  }

  #headers(metered: boolean): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.#options.headers };
    if (metered && this.#options.apiKey) headers['x-api-key'] = this.#options.apiKey;
    return headers;
  }
}
