// Importer for the synonyms (.syn) of a StarDict dictionary in a .tar.gz: inflected forms, each leading to the
// article it names. They lead to entries once those are known (snapshot/compiler/inflections.ts decides
// imported, merged or rejected).
import { readStarDict } from '../read/stardict.ts';
import type { InflectionOutcome, SourceContext } from '../records.ts';
import { NO_OPTIONS, defineImporter } from './importer.ts';

/** One synonym → the inflected form and its article's headword, or a rejection. Pure. */
export function importSynonym(form: string, headword: string | undefined, source: SourceContext): InflectionOutcome {
  if (headword === undefined) return { kind: 'rejected', reason: 'points at no article of the dictionary' };
  return { kind: 'inflection', record: { sourceId: source.id, language: source.language, form, headword } };
}

export const stardictSyn = defineImporter({
  options: NO_OPTIONS,
  read(source, into) {
    const { articles, synonyms } = readStarDict(into.file);
    for (const { form, article } of synonyms) into.inflection(importSynonym(form, articles[article]?.headword, source));
  },
});
