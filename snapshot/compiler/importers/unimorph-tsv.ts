// Importer for UniMorph inflection tables (`lemma<TAB>form<TAB>features`): each form leads to the entry of its
// lemma and is listed in that entry's inflection table (snapshot/compiler/inflections.ts decides imported, merged or
// rejected once the entries are known).
import { readLines } from '../read/files.ts';
import type { InflectionOutcome, SourceContext } from '../records.ts';
import { defineImporter } from './importer.ts';
import { UNIMORPH_OPTIONS, headwordsOf, partOfSpeechOf, readTableLemmas, tableRow } from './unimorph-table.ts';
import type { TableLemmas } from './unimorph-table.ts';

/** One table line → an inflected form of the entry its lemma is served by, or a rejection; blank lines are none. Pure. */
export function importUnimorphLine(line: string, source: SourceContext, table: TableLemmas, removeMarks: readonly string[] = []): InflectionOutcome | null {
  if (line.trim() === '') return null;
  const row = tableRow(line, removeMarks);
  if (!row) return { kind: 'rejected', reason: 'malformed line (not lemma<TAB>form<TAB>features)' };
  const partOfSpeech = partOfSpeechOf(row.features);
  if (!partOfSpeech) return { kind: 'rejected', reason: `features open with no part of speech the build maps (${row.features})` };
  const headwords = headwordsOf(row.lemma, partOfSpeech, source.language, table);
  return { kind: 'inflection', record: { sourceId: source.id, language: source.language, form: row.form, ...headwords, features: row.features, partOfSpeech } };
}

export const unimorphTsv = defineImporter({
  options: UNIMORPH_OPTIONS,
  read(source, into) {
    // Read twice: first for each verb's citation form (a paradigm's infinitive row need not come first).
    const table = readTableLemmas(into.file, source);
    for (const line of readLines(into.file)) {
      const outcome = importUnimorphLine(line, source, table, source.removeMarks);
      if (outcome) into.inflection(outcome);
    }
  },
});
