// Reusable parts of the OpenAPI description: the error schema, the error responses and the headers.
import { z } from 'zod';

import { ERROR_CODES } from '../../shared/errors.ts';
import { toJsonSchema } from './json-schema.ts';

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

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const rateLimitHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Used': { $ref: '#/components/headers/X-RateLimit-Used' },
};

export { rateLimitHeaders };

export const components = {
  securitySchemes: {
    ApiKeyHeader: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description:
        'Your API key (svc_live_ followed by 40 hex characters). Get a free key with POST /api/v1/developers. ' +
        'When X-API-Key is absent or empty, `Authorization: Bearer <key>` is read instead.',
    },
  },
  headers: {
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
  },
  schemas: {
    Error: toJsonSchema(ErrorSchema),
  },
  responses: {
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
      headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...rateLimitHeaders },
      content: errorContent,
    },
    BadRequest: {
      description: 'invalid_parameter (the message names the parameter) or unsupported_language.',
      headers: rateLimitHeaders,
      content: errorContent,
    },
    NotFound: { description: 'not_found.', headers: rateLimitHeaders, content: errorContent },
    InternalError: {
      description: 'internal_error: unexpected server error; the message is generic.',
      content: errorContent,
    },
    NotModified: {
      description: 'The representation matching If-None-Match is still current.',
      headers: { ETag: { $ref: '#/components/headers/ETag' }, ...rateLimitHeaders },
    },
  },
};
