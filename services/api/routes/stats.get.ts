// GET /api/v1/stats: the totals object, one stored body.
import { z } from 'zod';

import { StatsSchema } from '../../shared/schemas.ts';
import { LISTING_CACHE_CONTROL } from '../http/headers.ts';
import { storedBodyHandler } from '../http/stored-body.ts';
import { ETAG_HEADERS, METERED_ERRORS, NOT_MODIFIED } from '../openapi/components.ts';

import type { MeteredRoute } from '../http/route.ts';

/** Takes no parameters (spec: no page or limit); unknown query parameters are ignored. */
export const statsGetQuerySchema = z.object({});
export type StatsGetQuery = z.infer<typeof statsGetQuerySchema>;

export const statsGet: MeteredRoute = {
  kind: 'metered',
  method: 'GET',
  path: '/api/v1/stats',
  endpoint: 'GET /api/v1/stats',
  request: { query: statsGetQuerySchema },
  openapi: {
    operationId: 'getStats',
    tags: ['reference'],
    summary: 'Totals',
    responses: {
      200: { description: 'The totals object.', headers: ETAG_HEADERS, body: StatsSchema },
      304: NOT_MODIFIED,
      ...METERED_ERRORS,
    },
  },
  handler: ({ deps }) => storedBodyHandler(deps, deps.snapshot.statsJson(), LISTING_CACHE_CONTROL),
};
