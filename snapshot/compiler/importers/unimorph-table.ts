// What the UniMorph formats share (unimorph-tsv, unimorph-gloss): a table row's fields, the part of speech its
// features open with, and the form a lemma is served by.
import { z } from 'zod';

import { normalise } from '../../format/text.ts';
import { languageRules } from '../../languages/index.ts';
import type { PartOfSpeech } from '../../../services/shared/vocabulary.ts';
import { readLines } from '../read/files.ts';

/** UniMorph's part-of-speech tags (the first of a row's features, before `;` or `.`: V, V.MSDR, N, ADJ). */
export const UNIMORPH_POS: Readonly<Record<string, PartOfSpeech>> = { V: 'verb', N: 'noun', ADJ: 'adjective' };

export const UNIMORPH_OPTIONS = z.object({
  /**
   * The features of the table form a verb is served by, where the lexicon lists verbs so (Amharic: `V.MSDR`, the
   * infinitive, as Wiktionary does; the lemma column has the perfective). Otherwise the language's `verbCitation`
   * (Swahili: the infinitive of the stem), else the lemma.
   */
  verbCitationFeatures: z.string().min(1).optional(),
  /** Combining marks the table writes that the language's spelling does not (Zulu's vowel length, U+0304). */
  removeMarks: z.array(z.string().regex(/^\p{M}$/u)).default([]),
});
export type UnimorphOptions = z.infer<typeof UNIMORPH_OPTIONS>;

export interface TableRow {
  lemma: string;
  form: string;
  features: string;
}

/** A line's fields, normalised (without the marks the spelling does not write); null when it is not three fields. */
export function tableRow(line: string, removeMarks: readonly string[] = []): TableRow | null {
  const cols = line.replace(/\r$/, '').split('\t');
  if (cols.length !== 3) return null;
  const clean = (s: string): string => {
    let text = s.normalize('NFD');
    for (const mark of removeMarks) text = text.split(mark).join('');
    return normalise(text);
  };
  const [lemma, form, features] = [clean(cols[0]), clean(cols[1]), cols[2].trim()];
  if (lemma === '' || form === '' || features === '') return null;
  return { lemma, form, features };
}

/** The part of speech a row's features open with (`V;1;SG;PRS`, `V.MSDR` → verb), or null for another tag. */
export function partOfSpeechOf(features: string): PartOfSpeech | null {
  return UNIMORPH_POS[features.split(/[;.]/)[0]] ?? null;
}

/** Each (lemma, part of speech) of a table, in first-seen order, with its citation form where one is asked for. */
export interface TableLemmas {
  /** The parts of speech of a lemma, in the table's order. */
  partsOfSpeech: Map<string, PartOfSpeech[]>;
  /** A verb lemma's row with `verbCitationFeatures` (Amharic: its infinitive). */
  citations: Map<string, string>;
}

/** Reads a table for its lemmas (the gloss file names its table; the table's importer reads it whole too). */
export function readTableLemmas(file: string, options: UnimorphOptions): TableLemmas {
  const partsOfSpeech = new Map<string, PartOfSpeech[]>();
  const citations = new Map<string, string>();
  for (const line of readLines(file)) {
    const row = tableRow(line, options.removeMarks);
    const pos = row && partOfSpeechOf(row.features);
    if (!row || !pos) continue;
    const list = partsOfSpeech.get(row.lemma) ?? [];
    if (!list.includes(pos)) list.push(pos);
    partsOfSpeech.set(row.lemma, list);
    if (pos === 'verb' && row.features === options.verbCitationFeatures && !citations.has(row.lemma)) citations.set(row.lemma, row.form);
  }
  return { partsOfSpeech, citations };
}

/**
 * The headword a lemma's entry is looked up by, and the one to try next: a Swahili verb stem by its infinitive
 * (the language's `verbCitation`); a verb of a table with `verbCitationFeatures` by its lemma where the lexicon has
 * it, else by that form (Amharic: Wiktionary lists ሰበረ so, but most verbs by the infinitive, መሄድ).
 */
export function headwordsOf(lemma: string, partOfSpeech: PartOfSpeech, language: string, table: TableLemmas): { headword: string; otherHeadword?: string } {
  if (partOfSpeech !== 'verb') return { headword: lemma };
  const citation = table.citations.get(lemma);
  if (citation !== undefined && citation !== lemma) return { headword: lemma, otherHeadword: citation };
  return { headword: languageRules(language).verbCitation?.(lemma) ?? lemma };
}
