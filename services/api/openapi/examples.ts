// The reference's examples, drawn from the snapshot served: parameter values that answer 200 and a sample
// response per operation, so that every id, slug and query the description and /docs show finds something.
import { KEY_USAGE, KEY_WARNING } from '../routes/developers.create.ts';

import type { Snapshot } from '../../../snapshot/reader/snapshot.ts';
import type { Entry } from '../../shared/schemas.ts';

export interface ReferenceExamples {
  /** Values by parameter name: language, q (a headword), id (an entry's slug), date. */
  parameters: Readonly<Record<string, string>>;
  /** The entry the examples name (the word of the day of the first active language on `date`). */
  entry?: { id: number; slug: string; headword: string };
  /** A sample body of each operation's success response, by operationId. */
  responses: Readonly<Record<string, unknown>>;
  /** The licences the snapshot's data arrived under (SPDX), each once. */
  licences: readonly string[];
}

/** Items a sample search page or language list shows: enough to see the shape, short enough to read. */
const SAMPLE_ITEMS = 2;

/**
 * Examples for a snapshot. The entry is the word of the day of the first active language on the day the
 * snapshot was built: a word fit for a classroom with a meaning of its own (snapshot/compiler/classroom.ts),
 * and the same for every worker serving that snapshot.
 */
export function referenceExamples(snapshot: Snapshot): ReferenceExamples {
  const language = snapshot.languages().find((l) => l.status === 'active');
  const date = snapshot.meta.builtAt.slice(0, 10);
  const licences = [...new Set((snapshot.sources?.() ?? []).filter((s) => s.records > 0).map((s) => s.licence.spdx))].sort();
  const day = language === undefined ? undefined : snapshot.wordOfTheDayJson(language.code, date);
  if (language === undefined || day === undefined) return { parameters: {}, responses: {}, licences };
  const wordOfTheDay = JSON.parse(day) as { entry: Entry };
  const entry = wordOfTheDay.entry;
  const q = entry.headword;
  const page = snapshot.search({ q, language: language.code, page: 1, limit: SAMPLE_ITEMS });
  const languages = JSON.parse(snapshot.languagesJson()) as { data: unknown[] };
  return {
    parameters: { language: language.code, q, id: entry.slug, date },
    entry: { id: entry.id, slug: entry.slug, headword: entry.headword },
    responses: {
      searchWords: { data: page.items, total: page.total, page: 1, perPage: SAMPLE_ITEMS, hasMore: page.total > SAMPLE_ITEMS },
      getWord: entry,
      getWordOfTheDay: wordOfTheDay,
      listLanguages: { data: languages.data.slice(0, SAMPLE_ITEMS) },
      getStats: JSON.parse(snapshot.statsJson()) as unknown,
      createDeveloper: {
        developer: { id: 'dev_3f9c2a71', name: 'Ada', email: 'ada@example.org', plan: 'free' },
        apiKey: `svc_live_${'0123456789abcdef'.repeat(3).slice(0, 40)}`,
        keyPrefix: 'svc_live_01234567',
        warning: KEY_WARNING,
        usage: KEY_USAGE,
      },
    },
    licences,
  };
}
