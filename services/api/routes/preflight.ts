// OPTIONS: the CORS preflights (beyond the contract). Browsers calling the keyed reads from a page of another
// origin are answered; registration allows no other origin.
import { NOSNIFF, PREFLIGHT_HEADERS } from '../http/headers.ts';

import type { PageRoute } from '../http/route.ts';

/**
 * Without Access-Control-Allow-Origin the browser never sends the POST of a page elsewhere
 * (developers.create.ts refuses the ones that need no preflight).
 */
export const developersPreflight: PageRoute = {
  kind: 'page',
  unlimited: true,
  method: 'OPTIONS',
  path: '/api/v1/developers',
  handler: () => (_req, res) => {
    res.header(NOSNIFF[0], NOSNIFF[1]);
    res.status(204).send();
  },
};

export const apiPreflight: PageRoute = {
  kind: 'page',
  unlimited: true,
  method: 'OPTIONS',
  path: '/api/*',
  handler: () => (_req, res) => {
    for (const [name, value] of Object.entries(PREFLIGHT_HEADERS)) res.header(name, value);
    res.status(204).send();
  },
};
