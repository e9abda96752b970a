// Runs the shared metered-route contract against each of the five metered routes, on one real stack.
import { after, before, describe } from 'node:test';

import { meteredContract } from './contract.ts';
import { startApi } from './support.ts';

import type { WordsPage } from '../../services/shared/schemas.ts';
import type { Api } from './support.ts';

let api: Api;
let entryId = 0;

before(async () => {
  api = await startApi();
  const page = (await api.call('/api/v1/words?language=yo&limit=1', { key: api.key })).body as WordsPage;
  entryId = page.data[0].id;
});
after(async () => {
  await api?.stack.stop();
});

describe('metered route contract', () => {
  meteredContract(() => api, {
    name: 'GET /api/v1/words',
    path: () => '/api/v1/words?q=water',
    badParameterPath: '/api/v1/words?limit=101',
  });
  meteredContract(() => api, {
    name: 'GET /api/v1/words/{id}',
    path: () => `/api/v1/words/${entryId}`,
    notFoundPath: '/api/v1/words/999999999',
  });
  meteredContract(() => api, {
    name: 'GET /api/v1/word-of-the-day',
    path: () => '/api/v1/word-of-the-day?language=yo',
    badParameterPath: '/api/v1/word-of-the-day?date=2025-13-01',
  });
  meteredContract(() => api, { name: 'GET /api/v1/languages', path: () => '/api/v1/languages' });
  meteredContract(() => api, { name: 'GET /api/v1/stats', path: () => '/api/v1/stats' });
});
