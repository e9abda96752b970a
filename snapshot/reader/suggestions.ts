// "Did you mean": the headwords and forms nearest a query that found few entries, by edit distance on the folded
// form, found by generating the query's neighbours and asking the snapshot's existing lookups for each.
import { FORM_KIND } from '../format/format.ts';
import { hasSurrogate } from '../format/key-filter.ts';
import { fold } from '../format/text.ts';
import type { FormLookups } from './form-lookups.ts';
import type { OtherForms } from './other-forms.ts';
import type { SummaryStore } from './summaries.ts';

/** Suggestions given at most. */
export const MAX_SUGGESTIONS = 5;
/** A query whose ranked results are fewer than this gets suggestions. */
export const SUGGEST_BELOW_RESULTS = 3;
/**
 * Folded queries of this many letters or more are also matched at two edits. Below it one edit only: at two edits
 * a four-letter word is near a large part of a lexicon's short words, and the suggestions would be noise.
 */
export const TWO_EDITS_FROM_LETTERS = 6;
/**
 * Two edits up to this many letters: their neighbours grow with the square of the length (about 9,000 strings at
 * 10 letters, 18,000 at 14), and a longer word keeps its one-edit neighbours.
 */
export const TWO_EDITS_TO_LETTERS = 10;
/**
 * Longer queries get no suggestions: a slip is a word's, and the neighbours generated grow with the length
 * (about 55 per letter at one edit; times two per letter again at two).
 */
export const MAX_SUGGESTED_LETTERS = 24;
/**
 * Letters tried in substitutions and insertions: the folded forms of the Latin-script languages are written with
 * these (tone marks, underdots and hooked letters fold away), plus the query's own letters.
 */
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One suggestion: the form as the dictionary writes it, the query that finds it, its language, its edit distance. */
export interface Suggestion {
  text: string;
  query: string;
  language: string;
  distance: number;
}

/** Every string one edit from `word` (deletion, adjacent transposition, substitution, insertion), into `out`. */
function oneEdit(word: string, letters: readonly string[], out: Set<string>): void {
  const n = word.length;
  for (let i = 0; i < n; i++) {
    const before = word.slice(0, i);
    const after = word.slice(i + 1);
    out.add(before + after);
    if (i + 1 < n && word[i] !== word[i + 1]) out.add(before + word[i + 1] + word[i] + word.slice(i + 2));
    for (const c of letters) if (c !== word[i]) out.add(before + c + after);
  }
  for (let i = 0; i <= n; i++) for (const c of letters) out.add(word.slice(0, i) + c + word.slice(i));
}

/** The strings a deletion or an adjacent transposition away from `word`, into `out`. */
function dropOrSwap(word: string, out: Set<string>): void {
  const n = word.length;
  for (let i = 0; i < n; i++) {
    out.add(word.slice(0, i) + word.slice(i + 1));
    if (i + 1 < n && word[i] !== word[i + 1]) out.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
}

/**
 * The neighbours of a folded query (UTF-16 units = letters: no surrogates) by distance: one edit (Damerau: a letter
 * dropped, swapped with the next, changed or added); for queries of TWO_EDITS_FROM_LETTERS to TWO_EDITS_TO_LETTERS also two edits
 * of which one is a letter dropped or two letters swapped (an extra key or a swap beside any other slip). Two free
 * edits would be about (55 × letters)² strings; these are about 55 × 2 × letters², each a Bloom filter probe at most.
 * `twoEdits` false keeps to one edit (about 55 × letters).
 */
export function neighbours(folded: string, twoEdits = true): Map<string, number> {
  const letters = [...new Set([...LETTERS, ...folded.replace(/ /g, '')])];
  const first = new Set<string>();
  oneEdit(folded, letters, first);
  first.delete(folded);
  const found = new Map<string, number>();
  for (const s of first) if (s.trim() !== '') found.set(s, 1);
  if (twoEdits && folded.length >= TWO_EDITS_FROM_LETTERS && folded.length <= TWO_EDITS_TO_LETTERS) {
    const second = new Set<string>();
    for (const s of first) dropOrSwap(s, second);
    for (const s of second) if (s.trim() !== '' && s !== folded && !found.has(s)) found.set(s, 2);
  }
  return found;
}

/** What the suggester reads: the snapshot's forms lookups, its other forms and the entries' summaries. */
export interface SuggestionSources {
  forms: FormLookups;
  otherForms: OtherForms;
  summaries: SummaryStore;
}

/**
 * Up to MAX_SUGGESTIONS headwords and forms of `language` (every language when undefined) near the text, nearest
 * first, the commoner entry first at one distance; none that is among `found` (the query's own results). Two edits
 * only for a query that found nothing: a query with a few gloss or prefix results gets its one-edit neighbours, at
 * about a twentieth of the cost (two edits take milliseconds at ten letters).
 */
export function suggestionsFor(text: string, language: string | undefined, found: ReadonlySet<number>, { forms, otherForms, summaries }: SuggestionSources): Suggestion[] {
  const folded = fold(text);
  if (folded === '' || folded.length > MAX_SUGGESTED_LETTERS || hasSurrogate(folded)) return [];
  const hits: { globalRank: number; key: string; headword: boolean; distance: number }[] = [];
  // Most neighbours are no word: the snapshot's Bloom filters answer those without a statement.
  for (const [key, distance] of neighbours(folded, found.size === 0)) {
    const headword = forms.mightHave(key, FORM_KIND.folded);
    const variant = forms.mightHave(key, FORM_KIND.variant);
    if (headword || variant) {
      const [headwords, variants] = forms.find(key, [
        headword ? { key, kind: FORM_KIND.folded, language } : undefined,
        variant ? { key, kind: FORM_KIND.variant, language } : undefined,
      ]);
      for (const globalRank of headwords.slice(0, MAX_SUGGESTIONS)) hits.push({ globalRank, key, headword: true, distance });
      for (const globalRank of variants.slice(0, MAX_SUGGESTIONS)) hits.push({ globalRank, key, headword: false, distance });
    }
    // Other forms carry no language: their entries are filtered by the summary's below.
    if (otherForms.mightHave(key)) for (const globalRank of otherForms.find(key, false).slice(0, MAX_SUGGESTIONS)) hits.push({ globalRank, key, headword: false, distance });
  }
  hits.sort((a, b) => a.distance - b.distance || a.globalRank - b.globalRank || Number(b.headword) - Number(a.headword));
  const suggestions: Suggestion[] = [];
  const given = new Set<string>();
  for (const hit of hits) {
    if (suggestions.length === MAX_SUGGESTIONS) break;
    if (found.has(hit.globalRank)) continue;
    const { source, start, end } = summaries.get(hit.globalRank);
    const summary = JSON.parse(source.toString('utf8', start, end)) as { headword: string; language: string };
    if (language !== undefined && summary.language !== language) continue;
    // A headword is suggested as written (its tones and letters); a variant or other form by its folded key, which
    // is what finds it.
    const written = hit.headword ? summary.headword : hit.key;
    const id = `${summary.language}\u0000${written}`;
    if (given.has(id)) continue;
    given.add(id);
    suggestions.push({ text: written, query: written, language: summary.language, distance: hit.distance });
  }
  return suggestions;
}
