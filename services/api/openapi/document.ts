// Builds the OpenAPI 3.1.0 description from the zod schemas the routes validate with, including the four
// differences from the routes that the spec's Versioning section lists, on purpose.
import type { Language } from '../../shared/schemas.ts';
import {
  EntrySchema,
  LanguageSchema,
  LanguagesSchema,
  StatsSchema,
  WordOfTheDaySchema,
  WordSummarySchema,
  WordsPageSchema,
} from '../../shared/schemas.ts';
import { developersCreateBodySchema } from '../routes/developers.create.ts';
import { wordOfTheDayQuerySchema } from '../routes/word-of-the-day.get.ts';
import { wordsGetParamsSchema } from '../routes/words.get.ts';
import { wordsSearchQuerySchema } from '../routes/words.search.ts';
import { components, rateLimitHeaders } from './components.ts';
import { parametersOf, toJsonSchema } from './json-schema.ts';

import type { JsonSchema } from './json-schema.ts';

const API_KEY = [{ ApiKeyHeader: [] }];
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const response = (name: string) => ({ $ref: `#/components/responses/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const etagHeaders = { ETag: { $ref: '#/components/headers/ETag' }, ...rateLimitHeaders };

/** Standard error responses of a metered GET (the spec lists which of them each endpoint has). */
function meteredErrors(extra: Record<string, unknown>): Record<string, unknown> {
  return {
    ...extra,
    '401': response('Unauthorized'),
    '429': response('QuotaExceeded'),
    '500': response('InternalError'),
  };
}

/** The active languages of the snapshot served, as the `language` parameters' descriptions name them. */
function activeLanguagesText(languages: readonly Language[]): string {
  const active = languages.filter((l) => l.status === 'active');
  return active.length === 0 ? 'No language is active in this snapshot.' : `Active: ${active.map((l) => `${l.code} (${l.slug})`).join(', ')}.`;
}

/** The parameters of a schema with the `language` description completed from the snapshot's languages. */
function withLanguages(parameters: ReturnType<typeof parametersOf>, languages: readonly Language[]): ReturnType<typeof parametersOf> {
  return parameters.map((p) => (p.name === 'language' ? { ...p, description: `${p.description ?? ''} ${activeLanguagesText(languages)}`.trim() } : p));
}

/** Difference 4: the page maximum of 10,000 is a bound of the route only. */
function searchParameters(languages: readonly Language[]) {
  return withLanguages(parametersOf(wordsSearchQuerySchema, 'query'), languages).map((p) => {
    if (p.name === 'page') delete p.schema.maximum;
    return p;
  });
}

/** Difference 3: the route reads keyName; the description omits it. Unknown fields are ignored, not refused. */
function registrationBodySchema(): JsonSchema {
  const schema = toJsonSchema(developersCreateBodySchema);
  const properties = schema.properties as Record<string, JsonSchema>;
  delete properties.keyName;
  delete schema.additionalProperties;
  properties.email = { ...properties.email, format: 'email' };
  properties.organization = { ...properties.organization, description: 'Truncated to 200 characters.' };
  properties.useCase = { ...properties.useCase, description: 'Truncated to 500 characters.' };
  return schema;
}

/** `languages`: the snapshot's (active ones name themselves in the `language` parameters and the description). */
export function buildOpenApiDocument(languages: readonly Language[] = []): Record<string, unknown> {
  const active = languages.filter((l) => l.status === 'active').map((l) => l.name);
  const languageList = active.length > 1 ? `${active.slice(0, -1).join(', ')} and ${active[active.length - 1]}` : (active[0] ?? 'none yet');
  return {
    openapi: '3.1.0',
    info: {
      title: 'African Languages Dictionary API',
      version: '1.0.0',
      description:
        `An open dictionary of African languages (${languageList}): search with or without tone marks, full ` +
        'entries with their source and licence, word of the day, languages and totals. Metered endpoints need ' +
        'a free API key (POST /api/v1/developers). Daily limits per key and endpoint: free 1,000, team 50,000, ' +
        'institution 500,000; they reset at 00:00 UTC.',
      license: { name: 'Entries carry their own licence (see each entry)', identifier: 'CC-BY-SA-4.0' },
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'words', description: 'Search and entries' },
      { name: 'reference', description: 'Languages and totals' },
      { name: 'developers', description: 'API keys' },
    ],
    paths: {
      '/api/v1/words': {
        get: {
          operationId: 'searchWords',
          tags: ['words'],
          summary: 'Search words',
          description:
            'One q searches headwords, variants, other forms and English glosses. Results are ranked by matchType ' +
            '(exact: the form as written; folded: without tone marks, underdots or hooked letters; variant: a variant ' +
            'or Standard Igbo spelling; form: a plural, inflected form or romanisation the source lists; prefix: the ' +
            'start of a headword; gloss: the English meaning, whole glosses and glosses that begin with the words ' +
            'first), then common and frequent words, then shorter forms; keep q and the ' +
            'filters fixed to page through one result set and stop when hasMore is false.',
          security: API_KEY,
          parameters: searchParameters(languages),
          responses: meteredErrors({
            '200': {
              description: 'The paginated words envelope.',
              headers: {
                'Content-Range': {
                  description: 'items <first>-<last>/<total>, zero-based; an empty page reports items 0-0/0.',
                  schema: { type: 'string' },
                },
                ...rateLimitHeaders,
              },
              content: json(ref('WordsPage')),
            },
            '400': response('BadRequest'),
          }),
        },
      },
      '/api/v1/words/{id}': {
        get: {
          operationId: 'getWord',
          tags: ['words'],
          summary: 'Fetch one entry in full by id or slug',
          security: API_KEY,
          parameters: parametersOf(wordsGetParamsSchema, 'path'),
          responses: meteredErrors({
            '200': { description: 'The full entry.', headers: etagHeaders, content: json(ref('Entry')) },
            '304': response('NotModified'),
            '404': response('NotFound'),
          }),
        },
      },
      '/api/v1/word-of-the-day': {
        get: {
          operationId: 'getWordOfTheDay',
          tags: ['words'],
          summary: 'The word of the day',
          description: 'One stable word per language per UTC day; the full entry plus the date.',
          security: API_KEY,
          parameters: withLanguages(parametersOf(wordOfTheDayQuerySchema, 'query'), languages),
          responses: meteredErrors({
            '200': { description: 'The word of the day.', headers: etagHeaders, content: json(ref('WordOfTheDay')) },
            '304': response('NotModified'),
            '400': response('BadRequest'),
            '404': response('NotFound'),
          }),
        },
      },
      '/api/v1/languages': {
        get: {
          operationId: 'listLanguages',
          tags: ['reference'],
          summary: 'Every language with its word count',
          security: API_KEY,
          responses: meteredErrors({
            '200': { description: 'Every language.', headers: etagHeaders, content: json(ref('Languages')) },
            '304': response('NotModified'),
          }),
        },
      },
      '/api/v1/stats': {
        get: {
          operationId: 'getStats',
          tags: ['reference'],
          summary: 'Totals',
          security: API_KEY,
          responses: meteredErrors({
            '200': { description: 'The totals object.', headers: etagHeaders, content: json(ref('Stats')) },
            '304': response('NotModified'),
          }),
        },
      },
      '/api/v1/developers': {
        post: {
          operationId: 'createDeveloper',
          tags: ['developers'],
          summary: 'Register a developer and issue a free-plan API key',
          description:
            'Idempotent on email: an existing developer receives an additional key. The plaintext key is ' +
            'returned once only. Throttled per IP address.',
          security: [],
          requestBody: { required: true, content: json(registrationBodySchema()) },
          // Difference 2: the route can answer 500; the description lists none.
          responses: {
            // The spec types this response as a plain object without listed fields.
            '201': { description: 'The developer, the key (shown once), its prefix and usage notes.', content: json({ type: 'object' }) },
            '400': { description: 'invalid_parameter: the message names the parameter.', content: json(ref('Error')) },
            // Difference 1: described as the shared daily quota response, while the route returns rate_limited.
            '429': response('QuotaExceeded'),
          },
        },
      },
    },
    components: {
      ...components,
      schemas: {
        ...components.schemas,
        WordSummary: toJsonSchema(WordSummarySchema),
        WordsPage: toJsonSchema(WordsPageSchema),
        Entry: toJsonSchema(EntrySchema),
        WordOfTheDay: toJsonSchema(WordOfTheDaySchema),
        Language: toJsonSchema(LanguageSchema),
        Languages: toJsonSchema(LanguagesSchema),
        Stats: toJsonSchema(StatsSchema),
      },
    },
  };
}
