// Every route of the API worker, as descriptors (http/route.ts): the server is wired from this list (app.ts) and
// the OpenAPI description generated from it (openapi/document.ts), its operations in this order.
import { developersCreate } from './routes/developers.create.ts';
import { downloadsGet } from './routes/downloads.get.ts';
import { downloadsList } from './routes/downloads.list.ts';
import { healthzGet } from './routes/healthz.get.ts';
import { languagesList } from './routes/languages.list.ts';
import { openApiGet } from './routes/openapi.get.ts';
import { apiPreflight, developersPreflight } from './routes/preflight.ts';
import { statsGet } from './routes/stats.get.ts';
import { wordOfTheDay } from './routes/word-of-the-day.get.ts';
import { wordsGet } from './routes/words.get.ts';
import { wordsSearch } from './routes/words.search.ts';
import { WEBSITE_ROUTES } from './web/routes.ts';

import type { Route } from './http/route.ts';

export const ROUTES: readonly Route[] = [
  wordsSearch,
  wordsGet,
  wordOfTheDay,
  languagesList,
  statsGet,
  developersCreate,
  openApiGet,
  healthzGet,
  downloadsList,
  downloadsGet,
  developersPreflight,
  apiPreflight,
  ...WEBSITE_ROUTES,
];
