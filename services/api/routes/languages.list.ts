// GET /api/v1/languages: every language with its stored word count, one stored body.
import { z } from 'zod';

import { LISTING_CACHE_CONTROL } from '../http/headers.ts';
import { registerStoredBody } from '../http/stored-body.ts';

import type { Deps } from '../deps.ts';
import type { Server } from 'hyper-express';

/** Takes no parameters (spec: no page or limit); unknown query parameters are ignored. */
export const languagesListQuerySchema = z.object({});
export type LanguagesListQuery = z.infer<typeof languagesListQuerySchema>;

export function registerLanguagesList(app: Server, deps: Deps): void {
  registerStoredBody(app, deps, 'GET /api/v1/languages', deps.snapshot.languagesJson(), LISTING_CACHE_CONTROL);
}
