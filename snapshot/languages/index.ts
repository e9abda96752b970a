// Each language's own rules by its code, for the compiler and the search alike; a language without a module here
// gets DEFAULT_RULES. Adding a language that needs no rules of its own is a manifest entry only
// (corpora/sources.json and corpora/languages.json).
import { afrikaans } from './af.ts';
import { hausa } from './ha.ts';
import { igbo } from './ig.ts';
import { malagasy } from './mg.ts';
import { nguni, nguniWithInflection } from './nguni.ts';
import { swahili } from './sw.ts';
import type { LanguageRules } from './rules.ts';
import { DEFAULT_RULES } from './rules.ts';
import { yoruba } from './yo.ts';

export const LANGUAGE_RULES: Readonly<Record<string, LanguageRules>> = {
  af: afrikaans,
  ha: hausa,
  ig: igbo,
  mg: malagasy,
  nd: nguni,
  nr: nguni,
  ss: nguni,
  sw: swahili,
  xh: nguniWithInflection,
  yo: yoruba,
  zu: nguniWithInflection,
};

export function languageRules(code: string): LanguageRules {
  return Object.hasOwn(LANGUAGE_RULES, code) ? LANGUAGE_RULES[code] : DEFAULT_RULES;
}

/** Every language's fold letters and sequences together (see LanguageRules.foldLetters). */
export function foldContributions(): { letters: Record<string, string>; sequences: Record<string, string> } {
  const letters: Record<string, string> = {};
  const sequences: Record<string, string> = {};
  for (const rules of Object.values(LANGUAGE_RULES)) {
    Object.assign(letters, rules.foldLetters);
    Object.assign(sequences, rules.foldSequences);
  }
  return { letters, sequences };
}

/** The languages with a loose key, each with it. */
const LOOSE_KEYS: readonly (readonly [language: string, looseKey: (folded: string) => string])[] = Object.entries(LANGUAGE_RULES).flatMap(
  ([code, rules]) => (rules.looseKey ? [[code, rules.looseKey] as const] : []),
);

/** The loose keys of a folded query, each with its language, where one differs from the folded form itself. */
export function looseKeysOf(folded: string): { language: string; key: string }[] {
  if (folded === '') return [];
  return LOOSE_KEYS.map(([language, looseKey]) => ({ language, key: looseKey(folded) })).filter((l) => l.key !== folded);
}

/** Whether two folded forms meet through some language's loose key (or are equal). */
export function sameUnderLooseKeys(a: string, b: string): boolean {
  return a === b || LOOSE_KEYS.some(([, looseKey]) => looseKey(a) === looseKey(b));
}
