// GET /api/v1/languages: every language with its stored word count, one stored body.
import { z } from 'zod';

import { LanguagesSchema } from '../../shared/schemas.ts';
import { LISTING_CACHE_CONTROL } from '../http/headers.ts';
import { storedBodyHandler } from '../http/stored-body.ts';
import { ETAG_HEADERS, METERED_ERRORS, NOT_MODIFIED } from '../openapi/components.ts';

import type { MeteredRoute } from '../http/route.ts';

/** Takes no parameters (spec: no page or limit); unknown query parameters are ignored. */
export const languagesListQuerySchema = z.object({});
export type LanguagesListQuery = z.infer<typeof languagesListQuerySchema>;

export const languagesList: MeteredRoute = {
  kind: 'metered',
  method: 'GET',
  path: '/api/v1/languages',
  endpoint: 'GET /api/v1/languages',
  request: { query: languagesListQuerySchema },
  openapi: {
    operationId: 'listLanguages',
    tags: ['reference'],
    summary: 'Every language with its word count',
    responses: {
      200: { description: 'Every language.', headers: ETAG_HEADERS, body: LanguagesSchema },
      304: NOT_MODIFIED,
      ...METERED_ERRORS,
    },
  },
  handler: ({ deps }) => storedBodyHandler(deps, deps.snapshot.languagesJson(), LISTING_CACHE_CONTROL),
};
