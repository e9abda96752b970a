// Importer for UniMorph's English glosses of a table's lemmas (`lemma<TAB>glosses joined by commas`, Amharic's
// amh.gloss): each glossed lemma's senses join the lexicon's entry of the word, or make a new entry, by the part of
// speech and citation form its table gives it (snapshot/compiler/reverse.ts decides, once the lexicons are staged).
import { z } from 'zod';

import { normalise } from '../../format/text.ts';
import { readLines } from '../read/files.ts';
import type { ReverseOutcome, SourceContext } from '../records.ts';
import { defineImporter } from './importer.ts';
import { UNIMORPH_OPTIONS, headwordsOf, readTableLemmas } from './unimorph-table.ts';
import type { TableLemmas } from './unimorph-table.ts';

export const UNIMORPH_GLOSS_OPTIONS = UNIMORPH_OPTIONS.extend({
  /** The inflection table of the same lemmas (relative to the corpora directory): their parts of speech. */
  tableFile: z.string().min(1),
});

/** One gloss line → the senses of its lemma's entry, or a rejection; blank lines are none. Pure. */
export function importUnimorphGloss(line: string, source: SourceContext, table: TableLemmas): ReverseOutcome | null {
  const text = line.replace(/\r$/, '');
  if (text.trim() === '') return null;
  const tab = text.indexOf('\t');
  if (tab < 0) return { kind: 'rejected', reason: 'malformed line (not lemma<TAB>glosses)' };
  const lemma = normalise(text.slice(0, tab));
  // Each comma-separated gloss is a sense of its own ("rich,wealthy"; "hit,decapitate").
  const senses = [...new Set(text.slice(tab + 1).split(',').map(normalise).filter(Boolean))];
  if (lemma === '' || senses.length === 0) return { kind: 'rejected', reason: 'malformed line (empty lemma or gloss)' };
  // A lemma the table gives two parts of speech (4 of Amharic's 2,461) is glossed as its first.
  const partOfSpeech = table.partsOfSpeech.get(lemma)?.[0];
  if (!partOfSpeech) return { kind: 'rejected', reason: 'lemma not in its inflection table (no part of speech)' };
  const { headword, otherHeadword } = headwordsOf(lemma, partOfSpeech, source.language, table);
  return {
    kind: 'reverse',
    record: { sourceId: source.id, language: source.language, form: headword, ...(otherHeadword ? { otherForm: otherHeadword } : {}), senses, partOfSpeech },
  };
}

export const unimorphGloss = defineImporter({
  options: UNIMORPH_GLOSS_OPTIONS,
  otherFiles: (source) => [source.tableFile],
  read(source, into) {
    const table = readTableLemmas(into.otherFile(source.tableFile), source);
    for (const line of readLines(into.file)) {
      const outcome = importUnimorphGloss(line, source, table);
      if (outcome) into.reverse(outcome);
    }
  },
});
