// The endpoints the HTTP section loads: the five metered GETs, search both as a mix and as one repeated query.
export type ScenarioId = 'search-mix' | 'search-repeat' | 'entry-id' | 'entry-slug' | 'word-of-the-day' | 'languages' | 'stats';

export interface Scenario {
  id: ScenarioId;
  title: string;
  /** Fixed path, or undefined for the search mix (a file of paths). */
  path?: string;
}

export interface ScenarioPaths {
  repeatedSearch: string;
  entryId: string;
  entrySlug: string;
}

export const SCENARIO_TITLES: Readonly<Record<ScenarioId, string>> = {
  'search-mix': 'search, mix of distinct queries',
  'search-repeat': 'search, one repeated query',
  'entry-id': 'entry by id',
  'entry-slug': 'entry by slug',
  'word-of-the-day': 'word of the day',
  languages: 'languages',
  stats: 'stats',
};

export function scenarios(paths: ScenarioPaths): Scenario[] {
  const fixed: Record<Exclude<ScenarioId, 'search-mix'>, string> = {
    'search-repeat': paths.repeatedSearch,
    'entry-id': paths.entryId,
    'entry-slug': paths.entrySlug,
    'word-of-the-day': '/api/v1/word-of-the-day',
    languages: '/api/v1/languages',
    stats: '/api/v1/stats',
  };
  return [
    { id: 'search-mix', title: SCENARIO_TITLES['search-mix'] },
    ...Object.entries(fixed).map(([id, path]) => ({ id: id as ScenarioId, title: SCENARIO_TITLES[id as ScenarioId], path })),
  ];
}
