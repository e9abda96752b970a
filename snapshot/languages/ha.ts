// Hausa: hooked letters that most Hausa text online is typed without, and tones on citation forms.
import type { LanguageRules } from './rules.ts';

export const hausa: LanguageRules = {
  // Most Hausa text online (Unilex ha, NTREX-128) is typed without the hooked letters, so `kasa` must find
  // ƙasa; the exact form still ranks first (exact match before folded).
  foldLetters: { ɓ: 'b', ɗ: 'd', ƙ: 'k', ƴ: 'y' },
  // In ASCII Hausa writes ƴ as 'y: `'yan`, `ƴan` and `yan` meet.
  foldSequences: { "'y": 'y' },
  // Wiktionary's citation forms: a vowel without a mark is high, the grave low, the circumflex falling.
  tones: { unmarked: 'H', marks: { grave: 'L', circumflex: 'F' } },
  // Hausa text that writes a hooked letter writes the word's own (ƙasa is not kasa).
  trustsWrittenLetters: true,
  letters: 'ɓɗƙƴ',
};
