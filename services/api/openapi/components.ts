// Reusable parts of the OpenAPI description (the error schema, the shared responses and headers, the named
// schemas), and the names by which the route descriptors refer to them.
import { z } from 'zod';

import { ERROR_CODES } from '../../shared/errors.ts';
import {
  EntrySchema,
  LanguageSchema,
  LanguagesSchema,
  StatsSchema,
  WordOfTheDaySchema,
  WordSummarySchema,
  WordsPageSchema,
} from '../../shared/schemas.ts';
import { toJsonSchema } from './json-schema.ts';

import type { JsonSchema, ResponseDoc } from '../http/route.ts';

export const ErrorSchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES as [string, ...string[]]).describe('Stable code; clients branch on it.'),
    message: z.string().describe('For humans; may become more specific without the code changing.'),
    details: z
      .object({
        plan: z.string(),
        endpoint: z.string(),
        used: z.number().int(),
        limit: z.number().int(),
      })
      .optional()
      .describe('Set for quota_exceeded only.'),
  }),
});

/**
 * The schemas the description names (components.schemas), in its order. A response body that is one of them is
 * written as a $ref to it; the others stand for themselves in the description.
 */
export const NAMED_SCHEMAS: Readonly<Record<string, z.ZodTypeAny>> = {
  Error: ErrorSchema,
  WordSummary: WordSummarySchema,
  WordsPage: WordsPageSchema,
  Entry: EntrySchema,
  WordOfTheDay: WordOfTheDaySchema,
  Language: LanguageSchema,
  Languages: LanguagesSchema,
  Stats: StatsSchema,
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const responseRef = (name: string): ResponseDoc => ({ $ref: `#/components/responses/${name}` });
const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': headerRef('X-RateLimit-Limit'),
  'X-RateLimit-Remaining': headerRef('X-RateLimit-Remaining'),
  'X-RateLimit-Used': headerRef('X-RateLimit-Used'),
};
/** A stored body's 200: its validator and the rate-limit headers. */
export const ETAG_HEADERS = { ETag: headerRef('ETag'), ...RATE_LIMIT_HEADERS };

export const BAD_REQUEST = responseRef('BadRequest');
export const NOT_FOUND = responseRef('NotFound');
export const NOT_MODIFIED = responseRef('NotModified');
export const QUOTA_EXCEEDED = responseRef('QuotaExceeded');
/** The errors every metered operation lists (the spec lists which others each one has). */
export const METERED_ERRORS = {
  401: responseRef('Unauthorized'),
  429: QUOTA_EXCEEDED,
  500: responseRef('InternalError'),
} as const;

/** The security requirement of the metered operations. */
export const API_KEY_SECURITY = [{ ApiKeyHeader: [] }];

/** components, with the named schemas converted. */
export function components(): Record<string, unknown> {
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(NAMED_SCHEMAS)) schemas[name] = toJsonSchema(schema);
  return { securitySchemes: SECURITY_SCHEMES, headers: HEADERS, schemas, responses: RESPONSES };
}

const SECURITY_SCHEMES = {
  ApiKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description:
      'Your API key (svc_live_ followed by 40 hex characters). Get a free key with POST /api/v1/developers. ' +
      'When X-API-Key is absent or empty, `Authorization: Bearer <key>` is read instead.',
  },
};

const HEADERS = {
  'X-RateLimit-Limit': {
    description: "The key's daily limit for this endpoint.",
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left today (UTC) for this key and endpoint.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Used': {
    description: "This request's number within the key's day for this endpoint.",
    schema: { type: 'integer' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  ETag: { description: 'Validator tied to the snapshot version; send it back in If-None-Match.', schema: { type: 'string' } },
};

const RESPONSES = {
  Unauthorized: {
    description:
      'missing_api_key (no key in X-API-Key or Authorization Bearer) or invalid_api_key (unknown, revoked, ' +
      'expired, or the developer is suspended). No rate-limit headers.',
    content: errorContent,
  },
  QuotaExceeded: {
    description:
      'quota_exceeded: the key used its whole daily allowance for this endpoint. Retry-After gives the ' +
      'seconds until 00:00 UTC; details gives plan, endpoint, used and limit.',
    headers: { 'Retry-After': headerRef('Retry-After'), ...RATE_LIMIT_HEADERS },
    content: errorContent,
  },
  BadRequest: {
    description: 'invalid_parameter (the message names the parameter) or unsupported_language.',
    headers: RATE_LIMIT_HEADERS,
    content: errorContent,
  },
  NotFound: { description: 'not_found.', headers: RATE_LIMIT_HEADERS, content: errorContent },
  InternalError: {
    description: 'internal_error: unexpected server error; the message is generic.',
    content: errorContent,
  },
  NotModified: {
    description: 'The representation matching If-None-Match is still current.',
    headers: ETAG_HEADERS,
  },
};
