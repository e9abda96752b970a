// GET /api/v1/word-of-the-day: the day's stored entry for a language (or across the active languages).
import { z } from 'zod';

import { notFound } from '../../shared/errors.ts';
import { Lru } from '../../shared/lru.ts';
import { secondsToUtcMidnight, utcDay } from '../../shared/metering-protocol/day.ts';
import { WordOfTheDaySchema } from '../../shared/schemas.ts';
import { CompressedBody } from '../http/compression.ts';
import { snapshotEtag } from '../http/etag.ts';
import { ENTRY_CACHE_CONTROL } from '../http/headers.ts';
import { languageResolver } from '../http/language.ts';
import { checkQueryLength, registerQueryCache, spellsKnownParameters } from '../http/query-keys.ts';
import { queryParser } from '../http/query-schemas.ts';
import { representations, storedReply } from '../http/representations.ts';
import { BAD_REQUEST, ETAG_HEADERS, METERED_ERRORS, NOT_FOUND, NOT_MODIFIED } from '../openapi/components.ts';

import type { MeteredGetHandler } from '../http/metered-get.ts';
import type { Representations } from '../http/representations.ts';
import type { MeteredRoute, RouteSetup } from '../http/route.ts';

/** A real calendar day (2025-02-30 is refused), written YYYY-MM-DD. */
const isCalendarDate = (value: string): boolean => {
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
};

export const wordOfTheDayQuerySchema = z.object({
  language: z
    .string()
    .describe('An active language code or slug. Without it: one stable word for the day across the active languages.')
    .optional(),
  date: z
    .string()
    .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, 'must be a date written YYYY-MM-DD')
    .refine(isCalendarDate, 'must be a real calendar date (YYYY-MM-DD)')
    .describe('UTC day, YYYY-MM-DD; default today (UTC). The schedule is a deterministic cycle, so any day has a word.')
    .optional(),
});
export type WordOfTheDayQuery = z.infer<typeof wordOfTheDayQuerySchema>;
const parseWordOfTheDayQuery = queryParser(wordOfTheDayQuerySchema);
const DAY_PARAMETERS: ReadonlySet<string> = new Set(Object.keys(wordOfTheDayQuerySchema.shape));

/** Days × languages kept encoded (and compressed once per coding, on first use) per worker. */
const DAY_CACHE_ENTRIES = 256;

/** One raw query's answer for a day. */
interface Day {
  body: CompressedBody;
  etag: string;
  /** A named date's headers, fixed for the snapshot; undefined for today's word (todayHeaders). */
  headers: Representations | undefined;
}

export const wordOfTheDay: MeteredRoute = {
  kind: 'metered',
  method: 'GET',
  path: '/api/v1/word-of-the-day',
  endpoint: 'GET /api/v1/word-of-the-day',
  request: { query: wordOfTheDayQuerySchema },
  openapi: {
    operationId: 'getWordOfTheDay',
    tags: ['words'],
    summary: 'The word of the day',
    description: 'One stable word per language per UTC day; the full entry plus the date.',
    responses: {
      200: { description: 'The word of the day.', headers: ETAG_HEADERS, body: WordOfTheDaySchema },
      304: NOT_MODIFIED,
      400: BAD_REQUEST,
      404: NOT_FOUND,
      ...METERED_ERRORS,
    },
  },
  handler: dayHandler,
};

function dayHandler({ deps, app }: RouteSetup): MeteredGetHandler {
  const resolveLanguage = languageResolver(deps.snapshot);
  const cache = new Lru<{ body: CompressedBody; etag: string }>(DAY_CACHE_ENTRIES);
  const byRawQuery = new Lru<Day>(DAY_CACHE_ENTRIES);
  registerQueryCache(app, 'word of the day', cache);
  registerQueryCache(app, 'word of the day by query text', byRawQuery);
  // Today's word changes at 00:00 UTC and clients may cache it until then, so its Cache-Control counts down:
  // encoded once a second for the whole route (every language's word of one day has the same ETag).
  let todayMemo: { etag: string; seconds: number; headers: Representations } | undefined;
  const todayHeaders = (etag: string, now: number): Representations => {
    const seconds = secondsToUtcMidnight(now);
    if (todayMemo?.seconds !== seconds || todayMemo.etag !== etag) {
      const cacheControl = `public, max-age=${seconds}, s-maxage=${seconds}`;
      todayMemo = { etag, seconds, headers: representations([['cache-control', cacheControl]], etag) };
    }
    return todayMemo.headers;
  };

  return (req) => {
    checkQueryLength(req.query);
    const now = deps.now();
    const today = utcDay(now);
    // Repeated requests of one day skip parsing, validation and date arithmetic (keyed by the query text when
    // it spells the known parameters only: query-keys.ts).
    const rawKey = `${today}|${req.query}`;
    let day = byRawQuery.get(rawKey);
    if (day === undefined) {
      const parameters = req.queryParameters();
      const query = parseWordOfTheDayQuery(parameters);
      const language = query.language === undefined ? null : resolveLanguage(query.language);
      const date = query.date ?? today;
      // Decision: only a malformed date is invalid_parameter; a well-formed day the snapshot has no word
      // for is "no word of the day exists" (404). (The reader repeats its schedule as a cycle beyond the
      // materialised window, so in practice only a language without entries has none.)
      const key = `${language ?? ''}|${date}`;
      let stored = cache.get(key);
      if (stored === undefined) {
        const json = deps.snapshot.wordOfTheDayJson(language, date);
        if (json === undefined) {
          throw notFound(`No word of the day is scheduled for ${date}${language ? ` in language ${language}` : ''}.`);
        }
        stored = { body: new CompressedBody(Buffer.from(json)), etag: snapshotEtag(deps.snapshot.meta, date) };
        cache.set(key, stored);
      }
      // A named date's word is fixed for the snapshot; today's headers count down (todayHeaders).
      const headers = query.date === undefined ? undefined : representations([['cache-control', ENTRY_CACHE_CONTROL]], stored.etag);
      day = { ...stored, headers };
      if (spellsKnownParameters(parameters, DAY_PARAMETERS)) byRawQuery.set(rawKey, day);
    }
    return storedReply(req, day.body, day.headers ?? todayHeaders(day.etag, now));
  };
}
