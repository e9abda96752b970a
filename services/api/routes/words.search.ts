// GET /api/v1/words: ranked search (or alphabetical browse without q), paginated, metered.
import { z } from 'zod';

import { Lru } from '../../shared/lru.ts';
import { WordsPageSchema } from '../../shared/schemas.ts';
import { PARTS_OF_SPEECH, SEARCH_SCOPES } from '../../shared/vocabulary.ts';
import { COMPRESS_MIN_BYTES, CompressedBody, compress, negotiate } from '../http/compression.ts';
import { extendBlock, ownBlock, ownBytes, replyHeaders, SEARCH_CACHE_CONTROL } from '../http/headers.ts';
import { languageResolver } from '../http/language.ts';
import { checkQueryLength, registerQueryCache, spellsKnownParameters } from '../http/query-keys.ts';
import { intParam, queryParser } from '../http/query-schemas.ts';
import { METERED_VARY } from '../http/representations.ts';
import { BAD_REQUEST, METERED_ERRORS, RATE_LIMIT_HEADERS } from '../openapi/components.ts';

import type { Deps } from '../deps.ts';
import type { ContentCoding } from '../http/compression.ts';
import type { HeaderBlock } from '../http/headers.ts';
import type { GetRequest, MeteredGetHandler, Reply } from '../http/metered-get.ts';
import type { MeteredRoute, RouteSetup } from '../http/route.ts';
import type { SearchPage } from '../../../snapshot/reader/snapshot.ts';

/** Spec: q over 200 characters is invalid_parameter (bounds the work per request). */
export const Q_MAX_CHARS = 200;
/** Spec: page above 10,000 is refused (a bound of the implementation, absent from the OpenAPI description). */
export const PAGE_MAX = 10_000;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 20;
const PAGE_DESCRIPTION = '1-based page number.';
/**
 * Rendered pages kept per cache (two per worker), from a query's second request on. A page is a few kB; under
 * a stream of new queries the doorkeeper's false sightings (1 in 16) fill both caches with pages of their own,
 * so this is about 8 MB per worker when full: with the summaries held in memory, twice as many would take a
 * worker near its 150 MB target (BENCHMARKS.md, the workers' memory). Repeated queries need far fewer.
 */
const PAGE_CACHE_ENTRIES = 1_000;

export const wordsSearchQuerySchema = z.object({
  q: z
    .string()
    .max(Q_MAX_CHARS)
    .describe(
      'Search text, matched against headwords (with or without tone marks), variants and English glosses. ' +
        'Treated as plain text, never as query syntax. Without q the language is browsed alphabetically.',
    )
    .optional(),
  language: z.string().describe('An active language code or URL slug (GET /api/v1/languages lists every language).').optional(),
  partOfSpeech: z.enum(PARTS_OF_SPEECH).describe('Only entries with this part of speech.').optional(),
  scope: z
    .enum(SEARCH_SCOPES)
    .describe(
      'What q is matched with. all (the default): headwords and English meanings. headword: the words of the ' +
        'language only (matchType exact, folded, variant, form, inflected, prefix), for q written in the language. meaning: ' +
        'English meanings only (matchType meaning, gloss), for q written in English. Ignored without q.',
    )
    .optional(),
  page: intParam(1, PAGE_MAX, 1).describe(PAGE_DESCRIPTION),
  limit: intParam(1, LIMIT_MAX, LIMIT_DEFAULT).describe('Results per page.'),
});
export type WordsSearchQuery = z.infer<typeof wordsSearchQuerySchema>;
/** Spec, Versioning 3: the maximum page of 10,000 is in the route only; the description gives page no maximum. */
const documentedQuerySchema = wordsSearchQuerySchema.extend({
  page: z.number().int().min(1).default(1).describe(PAGE_DESCRIPTION),
});
const parseSearchQuery = queryParser(wordsSearchQuerySchema);
const SEARCH_PARAMETERS: ReadonlySet<string> = new Set(Object.keys(wordsSearchQuerySchema.shape));

interface RenderedPage {
  /** The JSON body: in the route's scratch buffer until the page is kept (keep). */
  body: Buffer;
  /** Its headers, encoded with the page: a cached page is sent as it is. */
  headers: HeaderBlock;
  /** The bytes are the page's own (copied out of the scratch buffer and the pool): it may be cached. */
  owned: boolean;
  /** A kept page's compressed forms and their headers, made on the first request that accepts each coding. */
  compressed?: CompressedBody;
  encodedHeaders?: Partial<Record<ContentCoding, HeaderBlock>>;
}

/** Every page's constant headers, encoded once; a page adds its Content-Range. */
const PAGE_HEADERS = replyHeaders([['cache-control', SEARCH_CACHE_CONTROL], METERED_VARY]);
/** A page's body starts here, then the items, then the rest of the envelope (PaginatedWordsSchema's order). */
const BODY_HEAD = '{"data":[';
/** Scratch for bodies at first: a page of 100 items is a few tens of kB; it grows for a larger one. */
const SCRATCH_BYTES = 64 * 1024;

/**
 * A page is rendered into one scratch buffer and sent from it: uWS copies the bytes in `end` before the
 * handler returns, so the next page may overwrite them. Only a page a cache keeps gets bytes of its own;
 * under a mix of new queries (most searches) no buffer is allocated per page.
 */
class PageRenderer {
  #scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES);

  /**
   * The envelope and Content-Range (zero-based positions; spec: an empty page reports `items 0-0/0`). Written
   * as text around the summaries' stored JSON bytes: parsing and re-serialising every summary, or decoding
   * them to strings only to encode the page again, would cost more than the rest of a search's rendering.
   */
  render(page: SearchPage, query: WordsSearchQuery): RenderedPage {
    const first = (query.page - 1) * query.limit;
    const hasMore = first + page.count < page.total;
    const tail = `],"total":${page.total},"page":${query.page},"perPage":${query.limit},"hasMore":${hasMore}${diagnosticsJson(page)}}`;
    // ASCII but for suggestions, which are words of the languages.
    const tailEncoding = page.suggestions.length > 0 ? 'utf8' : 'latin1';
    const length = BODY_HEAD.length + page.itemsByteLength + Buffer.byteLength(tail, tailEncoding);
    if (this.#scratch.length < length) this.#scratch = Buffer.allocUnsafeSlow(2 ** Math.ceil(Math.log2(length)));
    const body = this.#scratch.subarray(0, length);
    body.write(BODY_HEAD, 0, 'latin1');
    const at = page.writeItems(body, BODY_HEAD.length);
    body.write(tail, at, tailEncoding);
    const contentRange = page.count === 0 ? 'items 0-0/0' : `items ${first}-${first + page.count - 1}/${page.total}`;
    return { body, headers: extendBlock(PAGE_HEADERS, [['content-range', contentRange]]), owned: false };
  }
}

/** The envelope's `diagnostics` member (with its leading comma), or nothing when there is nothing to say. */
function diagnosticsJson(page: SearchPage): string {
  const members: string[] = [];
  if (page.truncated) members.push(`"truncated":true,"rankedLimit":${page.total}`);
  if (page.suggestions.length > 0) members.push(`"suggestions":${JSON.stringify(page.suggestions)}`);
  return members.length === 0 ? '' : `,"diagnostics":{${members.join(',')}}`;
}

/**
 * The reply for a page. A page a cache keeps is sent compressed to a client that accepts it, compressed on the
 * first such request and kept so; a page made for this request alone is compressed for it at the light `once`
 * settings (brotli 2, gzip 1), so that a first search is as small as a repeated one on a slow link
 * (docs/website.md, "Compression"; the cost: the bench's compression section).
 */
function pageReply(page: RenderedPage, req: GetRequest): Reply {
  if (!page.owned) return page.body.length >= COMPRESS_MIN_BYTES && req.acceptEncoding !== '' ? onceReply(page, req) : { status: 200, headers: page.headers, body: page.body };
  if (page.body.length >= COMPRESS_MIN_BYTES && req.acceptEncoding !== '') {
    page.compressed ??= new CompressedBody(page.body);
    const coding = page.compressed.codingFor(req.acceptEncoding);
    const bytes = coding === undefined ? undefined : page.compressed.bytes(coding);
    if (coding !== undefined && bytes !== undefined) {
      page.encodedHeaders ??= {};
      const headers = (page.encodedHeaders[coding] ??= ownBlock(extendBlock(page.headers, [['content-encoding', coding]])));
      return { status: 200, headers, body: bytes };
    }
  }
  return { status: 200, headers: page.headers, body: page.body };
}

/** A page no cache keeps, compressed for this response alone when the client accepts a coding and it shrinks. */
function onceReply(page: RenderedPage, req: GetRequest): Reply {
  const coding = negotiate(req.acceptEncoding);
  const encoded = coding === undefined ? undefined : compress(page.body, coding, 'once');
  if (coding === undefined || encoded === undefined || encoded.length >= page.body.length) return { status: 200, headers: page.headers, body: page.body };
  return { status: 200, headers: extendBlock(page.headers, [['content-encoding', coding]]), body: encoded };
}

/** Gives a page that a cache has just stored bytes of its own (in place: both caches may hold the object). */
function keep(page: RenderedPage): void {
  if (page.owned) return;
  page.body = ownBytes(page.body);
  page.headers = ownBlock(page.headers);
  page.owned = true;
}

export const wordsSearch: MeteredRoute = {
  kind: 'metered',
  method: 'GET',
  path: '/api/v1/words',
  endpoint: 'GET /api/v1/words',
  request: { query: wordsSearchQuerySchema },
  openapi: {
    operationId: 'searchWords',
    tags: ['words'],
    summary: 'Search words',
    description:
      'One q searches headwords, variants, other forms and English glosses; scope keeps it to the words of the ' +
      'language or to English meanings. Results are ranked by matchType (exact: the form as written; meaning: an ' +
      'English sense of the entry is q; folded: without tone marks, underdots or hooked letters; variant: a ' +
      'variant or Standard Igbo spelling; gloss: an English gloss that begins with q or mentions it; form: a ' +
      'plural, inflected form or romanisation the source lists; inflected: q read as an inflected form of the entry by ' +
      'the language\'s rules, e.g. Swahili ninakula finds kula; prefix: the start of a headword), then common and ' +
      'frequent words, then shorter forms; keep q, scope and the filters fixed to page through one result set and ' +
      'stop when hasMore is false.',
    documentedQuery: documentedQuerySchema,
    responses: {
      200: {
        description: 'The paginated words envelope.',
        headers: {
          'Content-Range': {
            description: 'items <first>-<last>/<total>, zero-based; an empty page reports items 0-0/0.',
            schema: { type: 'string' },
          },
          ...RATE_LIMIT_HEADERS,
        },
        body: WordsPageSchema,
      },
      400: BAD_REQUEST,
      ...METERED_ERRORS,
    },
  },
  handler: searchHandler,
};

function searchHandler({ deps, app }: RouteSetup): MeteredGetHandler {
  const resolveLanguage = languageResolver(deps.snapshot);
  const renderer = new PageRenderer();
  const cache = new Lru<RenderedPage>(PAGE_CACHE_ENTRIES, { secondSighting: true });
  // The same pages by query text, so that a repeated request also skips parsing and validation. Only valid
  // queries that spell the known parameters are stored (validation throws before the set; see query-keys.ts).
  const byRawQuery = new Lru<RenderedPage>(PAGE_CACHE_ENTRIES, { secondSighting: true });
  registerQueryCache(app, 'words', cache);
  registerQueryCache(app, 'words by query text', byRawQuery);

  const renderQuery = (parameters: Record<string, unknown>): RenderedPage => {
    const parsed = parseSearchQuery(parameters);
    // Text typed decomposed (NFD) must find the NFC forms the snapshot stores.
    const query = parsed.q === undefined ? parsed : { ...parsed, q: parsed.q.normalize('NFC') };
    const language = query.language === undefined ? undefined : resolveLanguage(query.language);
    const key = [language ?? '', query.partOfSpeech ?? '', query.scope ?? 'all', query.page, query.limit, query.q ?? ''].join('\u0000');
    let rendered = cache.get(key);
    if (rendered === undefined) {
      rendered = renderer.render(searchPage(deps, query, language), query);
      if (cache.set(key, rendered)) keep(rendered);
    }
    return rendered;
  };

  return (req) => {
    checkQueryLength(req.query);
    let rendered = byRawQuery.get(req.query);
    if (rendered === undefined) {
      const parameters = req.queryParameters();
      rendered = renderQuery(parameters);
      if (spellsKnownParameters(parameters, SEARCH_PARAMETERS) && byRawQuery.set(req.query, rendered)) keep(rendered);
    }
    return pageReply(rendered, req);
  };
}

function searchPage(deps: Deps, query: WordsSearchQuery, language: string | undefined): SearchPage {
  return deps.snapshot.search({
    q: query.q,
    language,
    partOfSpeech: query.partOfSpeech,
    scope: query.scope,
    page: query.page,
    limit: query.limit,
  });
}
