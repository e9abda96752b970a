// Inflected forms to their entries at query time: each language's analysis proposes headwords a typed word may
// inflect (snapshot/languages: `analyse`), and only those the lexicon holds with the right part of speech are kept.
import type { WordSummary } from '../../services/shared/schemas.ts';
import type { PartOfSpeech } from '../../services/shared/vocabulary.ts';
import { FORM_KIND } from '../format/format.ts';
import { letterMarkDifferences } from '../format/letter-marks.ts';
import { LANGUAGE_RULES } from '../languages/index.ts';
import type { Analysis } from '../languages/rules.ts';
import type { FormLookups } from './form-lookups.ts';
import type { MatchFilters } from './fts-query.ts';
import type { SummaryStore } from './summaries.ts';

/**
 * Readings asked of the lexicon per language and query: a bound on the lookups one query makes (each is a Bloom
 * filter probe, and a B-tree seek only where the filter says the key may be there). The rules propose fewer.
 */
export const MAX_READINGS = 96;
/** A word shorter than this is not analysed (each language's rules ask more where their affixes need it). */
const MIN_WORD_CHARS = 3;
/** One word of letters, with an apostrophe inside (Igbo n'ihu): a query of several words, or with digits, is not one. */
const ONE_WORD = /^\p{L}+(?:'\p{L}+)*$/u;

/** The languages that analyse forms, with their analysis. */
const ANALYSERS: readonly (readonly [language: string, analyse: (folded: string, written: string) => readonly Analysis[]])[] = Object.entries(LANGUAGE_RULES).flatMap(
  ([code, rules]) => (rules.analyse ? [[code, rules.analyse] as const] : []),
);

export class InflectedForms {
  constructor(
    private readonly forms: FormLookups,
    private readonly summaries: SummaryStore,
  ) {}

  /**
   * The entries a folded one-word text inflects: per language, the readings with the fewest parts taken off that find
   * an entry of their part of speech, those whose letters agree with the text's first, then in global rank order.
   */
  find(text: string, folded: string, filters: MatchFilters): number[] {
    if (!ONE_WORD.test(folded) || [...folded].length < MIN_WORD_CHARS) return [];
    const written = text.toLowerCase();
    const found = new Set<number>();
    for (const [language, analyse] of ANALYSERS) {
      if (filters.language && filters.language !== language) continue;
      for (const globalRank of this.inLanguage(text, language, analyse(folded, written), filters)) found.add(globalRank);
    }
    return [...found];
  }

  /**
   * The readings of one language, fewest parts first, until one number of parts finds an entry; those whose letters
   * agree with the letters the text writes first (Analysis.written), then in global rank order.
   */
  private inLanguage(text: string, language: string, readings: readonly Analysis[], filters: MatchFilters): number[] {
    const byParts = [...readings].sort((a, b) => a.parts - b.parts).slice(0, MAX_READINGS);
    let parts = -1;
    const found: number[] = [];
    const differences = new Map<number, number>();
    for (const reading of byParts) {
      if (reading.parts !== parts) {
        if (found.length > 0) break;
        parts = reading.parts;
      }
      for (const partOfSpeech of reading.partsOfSpeech) {
        if (filters.partOfSpeech && filters.partOfSpeech !== partOfSpeech) continue;
        // The headword folded, or a variant spelling of it (an Igbo Standard spelling: ihu is Onitsha ifu).
        const lookups = [FORM_KIND.folded, FORM_KIND.variant].map((kind) => ({ key: reading.lemma, kind, language, partOfSpeech }));
        for (const globalRank of this.forms.find(text, lookups).flat()) {
          if (reading.accepts && !reading.accepts(this.exactForm(globalRank))) continue;
          found.push(globalRank);
          const differ = reading.written === undefined ? 0 : letterMarkDifferences(reading.written, this.exactForm(globalRank));
          differences.set(globalRank, Math.min(differences.get(globalRank) ?? Number.POSITIVE_INFINITY, differ));
        }
      }
    }
    const order = (globalRank: number): number => differences.get(globalRank) ?? Number.POSITIVE_INFINITY;
    // Infinity (another number of letters) compares equal to itself, not NaN.
    return [...new Set(found)].sort((a, b) => (order(a) === order(b) ? a - b : order(a) < order(b) ? -1 : 1));
  }

  private exactForm(globalRank: number): string {
    const { source, start, end } = this.summaries.get(globalRank);
    return (JSON.parse(source.toString('utf8', start, end)) as Pick<WordSummary, 'exactForm'>).exactForm;
  }
}

/**
 * The likeliest reading of a form (fewest parts) that leads to the given folded headword of that part of speech (for
 * the reading samples and tests).
 */
export function readingOf(language: string, written: string, folded: string, lemma: string, partOfSpeech: PartOfSpeech): Analysis | undefined {
  const analyse = LANGUAGE_RULES[language]?.analyse;
  return [...(analyse?.(folded, written) ?? [])].sort((a, b) => a.parts - b.parts).find((a) => a.lemma === lemma && a.partsOfSpeech.includes(partOfSpeech));
}
