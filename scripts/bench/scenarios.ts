// The endpoints the bench loads, and the targets of issue 7 they are held to.
import type { MeteredEndpoint } from '../../services/shared/plans.ts';

export type ScenarioId = 'search-mix' | 'search-repeat' | 'entry-id' | 'entry-slug' | 'word-of-the-day' | 'languages' | 'stats';

export interface Scenario {
  id: ScenarioId;
  title: string;
  endpoint: MeteredEndpoint;
  /** Fixed path, or undefined for the search mix (a file of paths). */
  path?: string;
}

export interface ScenarioPaths {
  repeatedSearch: string;
  entryId: string;
  entrySlug: string;
}

export function scenarios(paths: ScenarioPaths): Scenario[] {
  return [
    { id: 'search-mix', title: 'search, mix of distinct queries', endpoint: 'GET /api/v1/words' },
    { id: 'search-repeat', title: 'search, one repeated query', endpoint: 'GET /api/v1/words', path: paths.repeatedSearch },
    { id: 'entry-id', title: 'entry by id', endpoint: 'GET /api/v1/words/{id}', path: paths.entryId },
    { id: 'entry-slug', title: 'entry by slug', endpoint: 'GET /api/v1/words/{id}', path: paths.entrySlug },
    { id: 'word-of-the-day', title: 'word of the day', endpoint: 'GET /api/v1/word-of-the-day', path: '/api/v1/word-of-the-day' },
    { id: 'languages', title: 'languages', endpoint: 'GET /api/v1/languages', path: '/api/v1/languages' },
    { id: 'stats', title: 'stats', endpoint: 'GET /api/v1/stats', path: '/api/v1/stats' },
  ];
}

/** Issue 7's targets on this machine. */
export const TARGETS = {
  lookupRatio: 0.6,
  lookupRatioStretch: 0.75,
  lookupP99Ms: 5,
  searchMixOfBareLoop: 0.5,
  searchMixP99Ms: 10,
  largeTypicalP99Ms: 10,
  largeWorstP99Ms: 50,
  largeBuildSeconds: 180,
  largeBuildPeakMb: 1024,
  workerRssMb: 150,
  /** The entry count the search and build targets apply to. */
  largeEntries: 1_000_000,
} as const;
