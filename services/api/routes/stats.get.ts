// GET /api/v1/stats: the totals object, one stored body.
import { z } from 'zod';

import { LISTING_CACHE_CONTROL } from '../http/headers.ts';
import { registerStoredBody } from '../http/stored-body.ts';

import type { Deps } from '../deps.ts';
import type { Server } from 'hyper-express';

/** Takes no parameters (spec: no page or limit); unknown query parameters are ignored. */
export const statsGetQuerySchema = z.object({});
export type StatsGetQuery = z.infer<typeof statsGetQuerySchema>;

export function registerStatsGet(app: Server, deps: Deps): void {
  registerStoredBody(app, deps, 'GET /api/v1/stats', deps.snapshot.statsJson(), LISTING_CACHE_CONTROL);
}
