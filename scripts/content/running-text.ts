// The most frequent word forms of a language's NTREX-128 text, and whether each finds an entry through the search
// (GET /api/v1/words semantics: the reader's search with the language filter).
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { MatchType } from '../../services/shared/vocabulary.ts';
import { normalise } from '../../snapshot/format/text.ts';
import { languageRules } from '../../snapshot/languages/index.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';

/** NTREX-128's file for each language it has of ours. */
export const NTREX_FILES: Readonly<Record<string, string>> = {
  ig: 'newstest2019-ref.ibo.txt',
  yo: 'newstest2019-ref.yor.txt',
  ha: 'newstest2019-ref.hau.txt',
  sw: 'newstest2019-ref.swa.txt',
  zu: 'newstest2019-ref.zul.txt',
};

/**
 * A word: letters and combining marks, with an apostrophe inside it (Hausa 'yan, Igbo n'ime) or at its start before
 * a letter. Hyphens, digits and punctuation separate words; a token with a digit is no word (2019, 5G).
 */
const WORD = /(?:['’](?=\p{L}))?[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu;
const HAS_DIGIT = /\p{N}/u;

/** The word forms of one line, normalised (the text's own stand-in characters repaired) and lower-cased. */
export function wordsOf(line: string, language: string): string[] {
  let text = normalise(line);
  for (const [pattern, replacement] of languageRules(language).textRepairs ?? []) text = text.replace(pattern, replacement);
  return text
    .split(/\s+/)
    .filter((token) => !HAS_DIGIT.test(token))
    .flatMap((token) => token.match(WORD) ?? [])
    .map((w) => w.toLowerCase().replace(/’/g, "'"));
}

/** The `top` most frequent word forms of a text file, most frequent first (ties in code-point order). */
export function frequentForms(file: string, language: string, top: number): { form: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) for (const w of wordsOf(line, language)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts]
    .map(([form, count]) => ({ form, count }))
    .sort((a, b) => b.count - a.count || (a.form < b.form ? -1 : a.form > b.form ? 1 : 0))
    .slice(0, top);
}

/** Match types that find the word itself (a prefix match finds another word that begins with it). */
const WORD_MATCHES: ReadonlySet<MatchType> = new Set(['exact', 'folded', 'variant', 'form', 'inflected']);

export interface FormResult {
  form: string;
  count: number;
  /** The first result's match type, when the search found any. */
  matchType?: MatchType;
  /** The first result's headword. */
  headword?: string;
}

export interface Coverage {
  language: string;
  forms: FormResult[];
  /** Share of the forms that find an entry as a word (not only as the start of a longer headword). */
  asWord: number;
  /** Share of the forms that find any entry at all, prefix matches included. */
  any: number;
  /** The forms found by inflection analysis only. */
  inflected: number;
}

/** Searches each form as the API would (q, language), headwords only: a word of the text is a word of the language. */
export function coverage(snapshot: Snapshot, language: string, forms: readonly { form: string; count: number }[]): Coverage {
  const results = forms.map(({ form, count }): FormResult => {
    const page = snapshot.search({ q: form, language, scope: 'headword', page: 1, limit: 1 });
    const first = page.items[0];
    return first ? { form, count, matchType: first.matchType, headword: first.headword } : { form, count };
  });
  const share = (test: (r: FormResult) => boolean): number => results.filter(test).length / Math.max(1, results.length);
  return {
    language,
    forms: results,
    asWord: share((r) => r.matchType !== undefined && WORD_MATCHES.has(r.matchType)),
    any: share((r) => r.matchType !== undefined),
    inflected: share((r) => r.matchType === 'inflected'),
  };
}

export function ntrexFile(corpora: string, language: string): string {
  return path.join(corpora, 'ntrex-128', NTREX_FILES[language]);
}
