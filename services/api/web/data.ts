// What the pages read from the snapshot beyond single calls: the day's words, the stats and the corpus list.
import { StatsSchema, WordOfTheDaySchema } from '../../shared/schemas.ts';
import type { Entry, Language, Stats } from '../../shared/schemas.ts';
import type { CorpusSource, Snapshot } from '../../../snapshot/reader/snapshot.ts';

export function wordsOfTheDay(
  snapshot: Snapshot,
  date: string,
): Array<{ language: Language; entry: Entry | undefined }> {
  return snapshot
    .languages()
    .filter((l) => l.status === 'active')
    .map((language) => {
      const json = snapshot.wordOfTheDayJson(language.code, date);
      const parsed = json === undefined ? undefined : WordOfTheDaySchema.safeParse(JSON.parse(json));
      return { language, entry: parsed?.success ? parsed.data.entry : undefined };
    });
}

export function readStats(snapshot: Snapshot): Stats | undefined {
  const parsed = StatsSchema.safeParse(JSON.parse(snapshot.statsJson()));
  return parsed.success ? parsed.data : undefined;
}

/** Entries sampled per language when the snapshot cannot list its sources itself. */
const SOURCE_SAMPLE_ENTRIES = 100;

/**
 * The corpora of this snapshot. A reader that implements sources() answers from the build's manifest; otherwise
 * the sources named on entries (and on their examples) are collected from a sample of each language, so the
 * page still credits every corpus that appears on the site.
 */
export function corpusSources(snapshot: Snapshot): readonly CorpusSource[] {
  const listed = snapshot.sources?.();
  if (listed) return listed;
  const found = new Map<string, CorpusSource>();
  const add = (s: Entry['source'], l: Entry['licence'], language: string, role: string) => {
    if (!found.has(s.id)) found.set(s.id, { ...s, licence: l, language, role, records: 0 });
  };
  for (const language of snapshot.languages().filter((l) => l.status === 'active')) {
    const page = snapshot.search({ language: language.code, page: 1, limit: SOURCE_SAMPLE_ENTRIES });
    for (const item of page.items) {
      const entry = snapshot.entry(item.slug);
      if (!entry) continue;
      add(entry.source, entry.licence, entry.language, 'lexicon');
      for (const e of entry.examples) add(e.source, e.licence, entry.language, 'examples');
    }
  }
  return [...found.values()];
}
